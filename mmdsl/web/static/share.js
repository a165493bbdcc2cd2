// The page's state in its URL fragment: #s= base64url of JSON {t, m, tn, mn}, UTF-8 safe.

export function encodeState(state) {
  const bytes = new TextEncoder().encode(JSON.stringify(state));
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function decodeState(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  const state = JSON.parse(new TextDecoder().decode(bytes));
  if (typeof state !== "object" || state === null) throw new Error("not a page state");
  const str = (v) => (typeof v === "string" ? v : "");
  return { t: str(state.t), m: str(state.m), tn: str(state.tn), mn: str(state.mn) };
}

export function stateFromHash(hash) {
  const m = /^#s=([A-Za-z0-9_-]+)$/.exec(hash || "");
  if (!m) return null;
  try { return decodeState(m[1]); } catch { return null; }
}
