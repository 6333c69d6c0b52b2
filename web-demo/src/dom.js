// Small DOM helpers the views share.

/**
 * The element with this id. The page (index.html) has every id the playground uses.
 * @param {string} id
 * @returns {any}
 */
export const $ = (id) => document.getElementById(id);

/** Whether the layout is the one-column phone layout. */
export const narrow = () => window.matchMedia('(max-width: 820px)').matches;

/**
 * An element with attributes (`class`, `dataset`, `on<event>` listeners, others as attributes)
 * and children (nodes, text, nested arrays; null, undefined and false are left out).
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...any} children
 * @returns {any}
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/**
 * Text with `code` spans, as nodes.
 * @param {string | undefined | null} text
 */
export function prose(text) {
  return String(text ?? '')
    .trim()
    .split(/(`[^`]+`)/)
    .map((part) => (part.startsWith('`') && part.endsWith('`') ? el('code', {}, part.slice(1, -1)) : part));
}
