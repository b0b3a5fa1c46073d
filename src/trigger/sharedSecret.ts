// Its own module with no imports: the secret credential reads it, and loading a credential
// should not load zod and luxon.

/** How to make the shared secret: in the secret credential and the trigger's panel. */
export const MAKE_A_SECRET =
	'The secret is a value you make up: a long random one (e.g. openssl rand -hex 32), set as the same custom header on the webhook in CallKaro.';
