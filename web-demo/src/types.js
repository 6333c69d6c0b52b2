// The shapes the playground passes around, from the ra2 WebAssembly package's declarations
// (ra2-wasm/src/web.rs), so `npm run typecheck` checks every use against the JSON contract.

/** @typedef {import('ra2-wasm/ra2_wasm.js').Report} Report */
/** @typedef {import('ra2-wasm/ra2_wasm.js').Finding} Finding */
/** @typedef {import('ra2-wasm/ra2_wasm.js').LintError} LintError */
/** @typedef {import('ra2-wasm/ra2_wasm.js').Verdict} Verdict */
/** @typedef {import('ra2-wasm/ra2_wasm.js').RuleDoc} RuleDoc */
/** @typedef {import('ra2-wasm/ra2_wasm.js').Check} Check */
/** @typedef {import('ra2-wasm/ra2_wasm.js').PseudoRule} PseudoRule */
/** @typedef {import('ra2-wasm/ra2_wasm.js').Options} Options */
/** @typedef {import('ra2-wasm/ra2_wasm.js').Severity} Severity */

/**
 * The settings the page shows, as a share link and local storage keep them.
 * @typedef {{ edition: string, failOn: string, select: string, ignore: string }} Settings
 */

/**
 * What the rule pane shows for one finding: the catalogue entry of its rule (or a pseudo-rule
 * as one), the check, and the severity in the edition that ran.
 * @typedef {{ id: string, title: string, requirement?: string, rationale?: string, remediation?: string, spec?: string, severity?: RuleDoc['severity'] | Severity, checks?: Check[] }} RulePaneDoc
 */

export {};
