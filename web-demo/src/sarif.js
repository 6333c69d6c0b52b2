// SARIF 2.1.0 from the JSON report and the rule catalogue, built the way `ra2 lint --format
// sarif` builds it (ra2-cli/src/render/sarif.rs): the catalogue as tool.driver.rules, one
// result per finding, unreadable documents as tool execution notifications, and fingerprints
// over rule, check, file, object and pointer (not the line), with the same hash as the CLI.

const SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';
const REPOSITORY = 'https://github.com/ra2-lint/ra2';
const FINGERPRINT_KEY = 'ra2/v1';

const LEVELS = { error: 'error', warning: 'warning', info: 'note' };

/** What every output adds to a finding with `refused_by_api_server` (as `ra2` itself does). */
export const REFUSED = 'The API server refuses this object, so it can never be created.';

/** Findings ra2 reports that are not catalogue rules. */
const PSEUDO_RULES = [
  {
    id: 'yaml',
    title: 'YAML the API server reads differently from how it looks',
    description: 'Duplicate keys and similar YAML problems: the API server keeps only one of the values, silently.',
    severity: 'error',
    help: `${REPOSITORY}#using-ra2-lint`,
  },
  {
    id: 'suppression',
    title: 'Suppression annotations name known rules and give a reason',
    description:
      'An ignore-check.ra2.dev annotation names a rule or check that does not exist, or gives no reason.',
    severity: 'warning',
    help: `${REPOSITORY}#suppressing-findings`,
  },
  {
    id: 'exemption',
    title: 'Config exemptions still match something',
    description: 'An exemption in .ra2.yaml matched no finding in this run: it may be stale.',
    severity: 'info',
    help: `${REPOSITORY}#exemptions-without-editing-manifests`,
  },
];

/** The pseudo-rules as rule documents, for the rule pane. */
export const PSEUDO_RULE_DOCS = Object.fromEntries(
  PSEUDO_RULES.map(({ id, title, description, severity }) => [
    id,
    { id, title, requirement: description, severity, checks: [] },
  ]),
);

/** A rule's severity in an edition: the catalogue gives one severity or one per edition. */
export function severityIn(doc, edition) {
  if (typeof doc.severity === 'string') return doc.severity;
  return doc.severity?.[edition] ?? 'warning';
}

/** `Kind namespace/name`, as ra2 prints an object. */
export function objectLabel(object = {}) {
  const kind = object.kind ?? 'object';
  if (object.namespace && object.name) return `${kind} ${object.namespace}/${object.name}`;
  if (object.name) return `${kind} ${object.name}`;
  return kind;
}

function objectPath(object) {
  const kind = object.kind ?? 'object';
  if (object.namespace && object.name) return `${kind}/${object.namespace}/${object.name}`;
  if (object.name) return `${kind}/${object.name}`;
  return kind;
}

/** A file name as a URI reference: unreserved characters kept, everything else percent-encoded. */
export function fileUri(name) {
  const path = name.replaceAll('\\', '/');
  const drive = /^[A-Za-z]:/.test(path);
  const prefix = drive ? 'file:///' : path.startsWith('/') ? 'file://' : '';
  let out = prefix;
  const bytes = new TextEncoder().encode(path);
  bytes.forEach((b, i) => {
    const c = String.fromCharCode(b);
    if (/[A-Za-z0-9\-._~/]/.test(c) || (drive && i === 1)) out += c;
    else out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  });
  return out;
}

/** FNV-1a, 128 bits, each part followed by a 0 byte: the CLI's fingerprint hash. */
export function fnv1a128(parts) {
  const mask = (1n << 128n) - 1n;
  const prime = 0x0000000001000000000000000000013bn;
  let hash = 0x6c62272e07bb014262b821756295c58dn;
  const encoder = new TextEncoder();
  for (const part of parts) {
    for (const b of [...encoder.encode(part), 0]) {
      hash ^= BigInt(b);
      hash = (hash * prime) & mask;
    }
  }
  return hash.toString(16).padStart(32, '0');
}

export function fingerprint(finding) {
  const o = finding.object ?? {};
  return fnv1a128([
    finding.rule,
    finding.check,
    finding.file,
    o.kind ?? '',
    o.namespace ?? '',
    o.name ?? '',
    finding.pointer ?? '',
  ]);
}

function catalogueRule(doc, edition) {
  const checks = (doc.checks ?? []).map((c) => `- ${c.slug}: ${c.description.trim()}`);
  const checksMarkdown = (doc.checks ?? []).map((c) => `- \`${c.slug}\` (${c.title}): ${c.description.trim()}`);
  return {
    id: doc.id,
    shortDescription: { text: doc.title },
    fullDescription: { text: doc.requirement.trim() },
    help: {
      text: `${doc.rationale.trim()}\n\nFix: ${doc.remediation.trim()}\n\nChecks:\n${checks.join('\n')}`,
      markdown: `${doc.rationale.trim()}\n\n**Fix:** ${doc.remediation.trim()}\n\n**Checks**\n\n${checksMarkdown.join('\n')}`,
    },
    helpUri: `${REPOSITORY}/blob/main/rules/${doc.id}.yaml`,
    defaultConfiguration: { level: LEVELS[severityIn(doc, edition)] ?? 'warning' },
    properties: { tags: ['kubernetes', 'anuket-ra2'], checks: (doc.checks ?? []).map((c) => c.slug) },
  };
}

function pseudoRule({ id, title, description, severity, help }) {
  return {
    id,
    shortDescription: { text: title },
    fullDescription: { text: description },
    help: { text: description, markdown: description },
    helpUri: help,
    defaultConfiguration: { level: LEVELS[severity] },
    properties: { tags: ['kubernetes'], checks: [] },
  };
}

function region(line, column, endLine, endColumn) {
  const r = { startLine: Math.max(line, 1), startColumn: Math.max(column, 1) };
  if (endLine !== undefined) {
    r.endLine = Math.max(endLine, r.startLine);
    r.endColumn = Math.max(endColumn, 1);
  }
  return r;
}

function result(finding, index) {
  const hasObject = Boolean(finding.object?.kind);
  const related = [];
  if (finding.source_template) {
    related.push({
      id: related.length,
      physicalLocation: { artifactLocation: { uri: fileUri(finding.source_template) } },
      message: { text: `rendered from Helm template ${finding.source_template}` },
    });
  }
  for (const r of finding.related ?? []) {
    related.push({
      id: related.length,
      physicalLocation: {
        artifactLocation: { uri: fileUri(finding.file) },
        region: region(r.line, r.column, r.end_line, r.end_column),
      },
      message: { text: r.message },
    });
  }
  const location = {
    physicalLocation: {
      artifactLocation: { uri: fileUri(finding.file) },
      region: region(finding.line, finding.column, finding.end_line, finding.end_column),
    },
  };
  if (hasObject) location.logicalLocations = [{ fullyQualifiedName: objectPath(finding.object), kind: 'resource' }];
  const out = {
    ruleId: finding.rule,
    ...(index.has(finding.rule) ? { ruleIndex: index.get(finding.rule) } : {}),
    level: LEVELS[finding.severity] ?? 'warning',
    message: {
      text:
        (hasObject ? `${finding.message} (${objectLabel(finding.object)})` : finding.message) +
        (finding.refused_by_api_server ? `. ${REFUSED}` : ''),
    },
    locations: [location],
    ...(related.length ? { relatedLocations: related } : {}),
    partialFingerprints: { [FINGERPRINT_KEY]: fingerprint(finding) },
    properties: {
      check: finding.check,
      pointer: finding.pointer ?? '',
      document: finding.document ?? 0,
      ...(finding.source_template ? { sourceTemplate: finding.source_template } : {}),
    },
  };
  return out;
}

function notification(error) {
  return {
    level: 'error',
    message: { text: error.message },
    descriptor: { id: error.code ?? 'ra2::parse' },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: fileUri(error.file) },
          region: region(error.line, error.column),
        },
      },
    ],
  };
}

/** The SARIF 2.1.0 log of a report; `catalogue` is `rules(report.edition)`. */
export function toSarif(report, catalogue) {
  const edition = report.edition;
  const rules = [
    ...catalogue.filter((doc) => !doc.editions || doc.editions.includes(edition)).map((doc) => catalogueRule(doc, edition)),
    ...PSEUDO_RULES.map(pseudoRule),
  ];
  const index = new Map(rules.map((r, i) => [r.id, i]));
  const results = report.findings.map((f) => result(f, index));
  // The same object written twice in one text must not share a fingerprint: number repeats.
  const seen = new Map();
  for (const r of results) {
    const fp = r.partialFingerprints[FINGERPRINT_KEY];
    const count = seen.get(fp) ?? 0;
    if (count > 0) r.partialFingerprints[FINGERPRINT_KEY] = `${fp}:${count}`;
    seen.set(fp, count + 1);
  }
  const invocation = { executionSuccessful: report.errors.length === 0 };
  if (report.errors.length) invocation.toolExecutionNotifications = report.errors.map(notification);
  return {
    $schema: SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'ra2',
            version: report.tool?.version ?? '0.0.0',
            semanticVersion: report.tool?.version ?? '0.0.0',
            informationUri: REPOSITORY,
            rules,
          },
        },
        invocations: [invocation],
        results,
        columnKind: 'unicodeCodePoints',
        properties: { edition },
      },
    ],
  };
}
