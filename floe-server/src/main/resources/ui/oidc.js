// Sign-in with the OIDC issuer: the authorization code flow with PKCE (RFC 7636), as a public
// client. The verifier stays in this tab's sessionStorage until the issuer sends the browser back.

const PENDING = "floe.console.pkce";

function base64url(bytes) {
  let text = "";
  for (const b of new Uint8Array(bytes)) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function random(n) {
  const bytes = new Uint8Array(n);
  crypto.getRandomValues(bytes);
  return base64url(bytes);
}

function redirectUri() {
  return location.origin + "/ui/";
}

/** Sends the browser to the issuer's sign-in page. */
export async function startSignIn(oidc) {
  const verifier = random(32);
  const state = random(16);
  const challenge = base64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  sessionStorage.setItem(PENDING, JSON.stringify({ verifier, state, hash: location.hash }));
  const url = new URL(oidc.authorizationEndpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", oidc.clientId);
  url.searchParams.set("redirect_uri", redirectUri());
  url.searchParams.set("scope", oidc.scope || "openid");
  url.searchParams.set("state", state);
  url.searchParams.set("code_challenge", challenge);
  url.searchParams.set("code_challenge_method", "S256");
  location.assign(url.toString());
}

/**
 * When the issuer has just sent the browser back with a code: exchanges it for an access token
 * (null when this page load is not such a return). Throws with the issuer's message on failure.
 */
export async function finishSignIn(oidc) {
  const params = new URLSearchParams(location.search);
  if (!params.has("code") && !params.has("error")) return null;
  const pending = JSON.parse(sessionStorage.getItem(PENDING) || "null");
  sessionStorage.removeItem(PENDING);
  history.replaceState(null, "", "/ui/" + ((pending && pending.hash) || ""));
  if (params.has("error")) {
    throw { message: "The identity provider refused: " + (params.get("error_description") || params.get("error")) };
  }
  if (!oidc || !pending || pending.state !== params.get("state")) {
    throw { message: "This sign-in was not started here (its state does not match): sign in again." };
  }
  const body = new URLSearchParams({
    grant_type: "authorization_code",
    code: params.get("code"),
    redirect_uri: redirectUri(),
    client_id: oidc.clientId,
    code_verifier: pending.verifier,
  });
  let response;
  try {
    response = await fetch(oidc.tokenEndpoint, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
      body,
    });
  } catch (e) {
    throw { message: "The identity provider could not be reached (" + (e && e.message) + ")" };
  }
  const answer = await response.json().catch(() => ({}));
  if (!response.ok || !answer.access_token) {
    throw { message: "The identity provider gave no token: " + (answer.error_description || answer.error || response.status) };
  }
  return answer.access_token;
}
