// How the playground names things in its panes, as `ra2` prints them.

/** What every output adds to a finding with `refused_by_api_server` (as `ra2` itself does). */
export const REFUSED = 'The API server refuses this object, so it can never be created.';

/**
 * A rule's severity in an edition: the catalogue gives one severity or one per edition.
 * @param {{ severity?: string | Record<string, string> }} doc
 * @param {string} edition
 * @returns {string}
 */
export function severityIn(doc, edition) {
  if (typeof doc.severity === 'string') return doc.severity;
  return doc.severity?.[edition] ?? 'warning';
}

/**
 * `Kind namespace/name`, as ra2 prints an object.
 * @param {import('ra2-wasm/ra2_wasm.js').ObjectRef} [object]
 */
export function objectLabel(object = {}) {
  const kind = object.kind ?? 'object';
  if (object.namespace && object.name) return `${kind} ${object.namespace}/${object.name}`;
  if (object.name) return `${kind} ${object.name}`;
  return kind;
}
