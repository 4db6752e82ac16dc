// Who is signed in, shared by every page; pages listen for "ludoteca:session".
import * as api from "./api.js";

export const session = { user: null, role: null };

export function setUser(user) {
  // GET /api/sessions answers {user: {...}} (or the user itself); keep the user.
  session.user = user && user.user ? user.user : user && user.username ? user : null;
  // Moderators and admins (GET /api/sessions says which) see the moderators' page.
  session.role = (session.user && user.role) || null;
  window.dispatchEvent(new CustomEvent("ludoteca:session", { detail: session.user }));
}

// A page that needs an identity (create, join) makes one: a guest session if nobody is
// signed in, so a newcomer can play without filling any form.
export async function ensureUser() {
  if (session.user) return session.user;
  setUser(await api.guest());
  if (!session.user) setUser(await api.me());
  return session.user;
}
