// @ts-check
/**
 * Request bodies: read with a size limit, and parse JSON, multipart/form-data (fields only)
 * and application/x-www-form-urlencoded. A tiny multipart parser, no dependencies.
 */

export const MALFORMED_JSON_MESSAGE = 'Malformed JSON in request body';

/**
 * @typedef {{ ok: true, value: unknown, kind: 'empty' | 'json' | 'multipart' | 'urlencoded' }} ParsedBody
 * @typedef {{ ok: false, message: string, raw: string }} BodyError
 */

/**
 * Read the whole body. Past `limit` bytes the rest is drained and dropped.
 * @param {import('node:http').IncomingMessage} req
 * @param {number} limit
 * @returns {Promise<{ body: Buffer, tooLarge: boolean }>}
 */
export function readBody(req, limit) {
	return new Promise((resolve, reject) => {
		/** @type {Buffer[]} */
		const chunks = [];
		let size = 0;
		let tooLarge = false;
		req.on('data', (/** @type {Buffer} */ chunk) => {
			size += chunk.length;
			if (size > limit) {
				tooLarge = true;
				chunks.length = 0;
			} else if (!tooLarge) {
				chunks.push(chunk);
			}
		});
		req.on('end', () => resolve({ body: Buffer.concat(chunks), tooLarge }));
		req.on('error', reject);
	});
}

/**
 * The boundary parameter of a multipart content type.
 * @param {string} contentType
 */
export function multipartBoundary(contentType) {
	const m = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
	return m ? (m[1] ?? m[2]) : null;
}

/**
 * Parse a multipart/form-data body into its text fields (file parts are skipped).
 * When a name repeats, the last value wins.
 * @param {Buffer} body
 * @param {string} boundary
 * @returns {Record<string, string> | null} null when the body is not well formed
 */
export function parseMultipart(body, boundary) {
	const delimiter = Buffer.from(`--${boundary}`);
	const crlfDelimiter = Buffer.from(`\r\n--${boundary}`);
	/** @type {Record<string, string>} */
	const fields = {};
	let pos = body.indexOf(delimiter);
	if (pos === -1) return null;
	pos += delimiter.length;
	for (;;) {
		if (body[pos] === 0x2d && body[pos + 1] === 0x2d) return fields; // closing "--"
		if (body[pos] !== 0x0d || body[pos + 1] !== 0x0a) return null;
		pos += 2;
		const headerEnd = body.indexOf('\r\n\r\n', pos);
		if (headerEnd === -1) return null;
		const headers = body.toString('utf8', pos, headerEnd);
		const next = body.indexOf(crlfDelimiter, headerEnd + 4);
		if (next === -1) return null;
		const disposition = /^content-disposition:\s*form-data(.*)$/im.exec(headers);
		if (disposition) {
			const name = /;\s*name="([^"]*)"/i.exec(disposition[1]);
			const isFile = /;\s*filename\*?=/i.test(disposition[1]);
			if (name && !isFile) fields[name[1]] = body.toString('utf8', headerEnd + 4, next);
		}
		pos = next + crlfDelimiter.length;
	}
}

/**
 * Parse a body by its content type. An empty body is {}. JSON is also tried when the content
 * type is missing or unknown (a lenient server, like many JSON APIs).
 * @param {string | undefined} contentType
 * @param {Buffer} body
 * @returns {ParsedBody | BodyError}
 */
export function parseBody(contentType, body) {
	const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
	if (type === 'multipart/form-data') {
		const boundary = multipartBoundary(contentType ?? '');
		const fields = boundary ? parseMultipart(body, boundary) : null;
		if (!fields)
			return { ok: false, message: 'Malformed multipart/form-data body', raw: preview(body) };
		return { ok: true, value: fields, kind: 'multipart' };
	}
	if (body.length === 0) return { ok: true, value: {}, kind: 'empty' };
	if (type === 'application/x-www-form-urlencoded') {
		return {
			ok: true,
			value: Object.fromEntries(new URLSearchParams(body.toString('utf8'))),
			kind: 'urlencoded',
		};
	}
	let text = body.toString('utf8');
	if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
	try {
		return { ok: true, value: JSON.parse(text), kind: 'json' };
	} catch {
		return { ok: false, message: MALFORMED_JSON_MESSAGE, raw: preview(body) };
	}
}

const PREVIEW_LIMIT = 4096;

/**
 * The body as text for the request log, cut at 4 KiB.
 * @param {Buffer} body
 */
export function preview(body) {
	const text = body.toString('utf8', 0, Math.min(body.length, PREVIEW_LIMIT));
	return body.length > PREVIEW_LIMIT ? `${text}…` : text;
}
