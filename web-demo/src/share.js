// Share links: the editor text and the settings, as JSON, deflated (CompressionStream
// 'deflate-raw') and base64url-encoded into the URL fragment, `#s=...`. Fragments never reach
// a server, so a shared manifest stays between the people who have the link.

const PREFIX = '#s=';

/** @typedef {{ text: string, edition?: string, failOn?: string, select?: string, ignore?: string }} State */

/**
 * @param {Uint8Array<ArrayBuffer>} bytes
 * @param {CompressionStream | DecompressionStream} stream
 */
async function pipe(bytes, stream) {
  const body = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(body).arrayBuffer());
}

/** @param {Uint8Array} bytes */
function toBase64Url(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** @param {string} text */
function fromBase64Url(text) {
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/**
 * The URL fragment (with its `#`) for a state: {text, edition, failOn, select, ignore}.
 * @param {State} state
 */
export async function encodeState(state) {
  const json = JSON.stringify({ v: 1, ...state });
  const deflated = await pipe(new TextEncoder().encode(json), new CompressionStream('deflate-raw'));
  return PREFIX + toBase64Url(deflated);
}

/**
 * Whether a URL fragment is a share link.
 * @param {unknown} hash
 * @returns {hash is string}
 */
export function isShareFragment(hash) {
  return typeof hash === 'string' && hash.startsWith(PREFIX);
}

/**
 * The state of a share fragment; throws an Error saying what is wrong with a damaged one.
 * @param {string} hash
 * @returns {Promise<State>}
 */
export async function decodeState(hash) {
  if (!isShareFragment(hash)) throw new Error('not a share link');
  let state;
  try {
    const inflated = await pipe(fromBase64Url(hash.slice(PREFIX.length)), new DecompressionStream('deflate-raw'));
    state = JSON.parse(new TextDecoder().decode(inflated));
  } catch {
    throw new Error('the share link is damaged (was it cut short when it was copied?)');
  }
  if (!state || state.v !== 1 || typeof state.text !== 'string') {
    throw new Error('the share link was made by another version of the playground');
  }
  const { v: _version, ...rest } = state;
  return rest;
}
