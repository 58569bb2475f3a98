// Being told when it is one's turn at a game by correspondence (Web Push): a button the person presses, never a
// question asked on load.  The button asks the browser's permission, registers the service worker
// (/static/sw.js), subscribes with the server's VAPID key (GET /api/push/key) and gives the subscription to the
// server (POST /api/push/subscribe): for the seat when the page holds one (its token), and for the player this
// browser is (X-Player-Token, which api() sends), so that all the player's tables are told.

import {api} from "./api.js";
import {h} from "./dom.js";
import {currentLang, t} from "./i18n.js";

const PUSH_KEY = "ludotheque.push";  // "on" once this browser has subscribed

export function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

export function pushEnabled() {
  return localStorage.getItem(PUSH_KEY) === "on" && pushSupported() && Notification.permission === "granted";
}

// The button (or, once pressed, what it did), for `seat` ({tableId, token}) or the player alone; `redraw` after.
export function notifyButton(seat, redraw) {
  if (!pushSupported()) return null;
  if (pushEnabled()) return h("p", {class: "push-state", "data-test": "push-state"}, t("push.enabled"));
  return h("p", {class: "push-state"},
    h("button", {type: "button", "data-test": "notify", onclick: async (event) => {
      const button = event.currentTarget;
      button.disabled = true;
      const note = await enableNotifications(seat);
      if (note) {
        button.disabled = false;
        button.parentElement.append(h("span", {class: "notice", role: "status", "data-test": "push-note"}, ` ${note}`));
      } else {
        redraw();
      }
    }}, t("push.enable")));
}

// Subscribe; null when done, else what went wrong, in words.
export async function enableNotifications({tableId = null, token = null} = {}) {
  try {
    if (await Notification.requestPermission() !== "granted") return t("push.denied");
    const registration = await navigator.serviceWorker.register("/static/sw.js", {scope: "/static/"});
    await activated(registration);
    const {public_key: key} = await api("/api/push/key");
    const subscription = await registration.pushManager.getSubscription()
      || await registration.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: fromBase64Url(key)});
    await api("/api/push/subscribe", {method: "POST", token, body: {
      subscription: subscription.toJSON(), lang: currentLang(), ...(tableId && token ? {table_id: tableId} : {})}});
    localStorage.setItem(PUSH_KEY, "on");
    return null;
  } catch (error) {
    return t("push.failed", {error: reason(error)});
  }
}

// Why, in the page's language: the browser's own words (a DOMException's) and the server's are English.
function reason(error) {
  if (error.status === 0) return error.message;  // no answer: api() said so in the page's language already
  if (error.status === 503) return t("push.error.off");
  if (error.status) return t("push.error.server");
  return t("push.error.browser");
}

// A subscription needs an active worker: a new registration's is still installing.
function activated(registration) {
  if (registration.active) return Promise.resolve(registration);
  const worker = registration.installing || registration.waiting;
  return new Promise((resolve, reject) => {
    worker.addEventListener("statechange", () => {
      if (worker.state === "activated") resolve(registration);
      if (worker.state === "redundant") reject(new Error("service worker"));
    });
  });
}

function fromBase64Url(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}
