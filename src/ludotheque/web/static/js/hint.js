// The coach's hint at a table created with hints (docs/server.md: {"type": "hint"} from the seat to act, answered
// {"type": "hint", seq, move, expected, next_best, next_expected}): a button on the person's turn, and the answer
// as a line, "Le coach propose X (+n points sur Y)", with the move's own button marked on the board.  An answer is
// for the position it was asked at: a new one hides it.

import {h} from "./dom.js";
import {currentLang, t} from "./i18n.js";

export function createHint({send, redraw}) {
  const hint = {asked: null, answer: null};  // the seq a hint was asked at; the latest answer

  function points(value) {
    return Number(value).toLocaleString(currentLang(), {maximumFractionDigits: 1, minimumFractionDigits: 1});
  }

  // `name(notation)`: the move in words, as the game's buttons name it
  function says(answer, name) {
    if (answer.next_best === null || answer.expected === null || answer.next_expected === null) {
      return t("hint.forced", {move: name(answer.move)});
    }
    return t("hint.proposal", {move: name(answer.move), gain: points(answer.expected - answer.next_expected),
      other: name(answer.next_best)});
  }

  return {
    receive(message) {
      if (message.type === "hint") hint.answer = message;
      hint.asked = null;  // answered, or refused (the refusal is the page's notice)
    },
    // the button and the answer; `available`: a hints table, and the person's turn; `name(notation)`: a move in
    // words
    bar(available, seq, name = (notation) => notation) {
      const answer = hint.answer && hint.answer.seq === seq ? hint.answer : null;
      if (!available) return null;
      const asking = hint.asked === seq;
      return h("div", {class: "hint", "data-test": "hint-bar"},
        answer ? null : h("button", {"data-test": "hint", disabled: asking, onclick: () => {
          if (send({type: "hint"})) { hint.asked = seq; redraw(); }
        }}, t("hint.ask")),
        asking ? h("span", {role: "status"}, t("hint.thinking")) : null,
        answer ? h("p", {role: "status", "data-test": "hint-answer"}, says(answer, name)) : null);
    },
    // the proposed move's button, marked (after the board is drawn)
    mark(root, seq) {
      const answer = hint.answer && hint.answer.seq === seq ? hint.answer : null;
      if (!answer) return;
      for (const button of root.querySelectorAll(`[data-notation="${CSS.escape(answer.move)}"]`)) {
        button.classList.add("hinted");
      }
    },
  };
}
