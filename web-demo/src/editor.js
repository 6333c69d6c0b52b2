// The CodeMirror 6 editor: YAML highlighting, the lint gutter and hover tooltips, colours from
// the page's CSS variables (so light and dark follow prefers-color-scheme).
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { yaml } from '@codemirror/lang-yaml';
import {
  bracketMatching,
  foldGutter,
  foldKeymap,
  HighlightStyle,
  indentOnInput,
  syntaxHighlighting,
} from '@codemirror/language';
import { lintGutter, lintKeymap } from '@codemirror/lint';
import { highlightSelectionMatches, search, searchKeymap } from '@codemirror/search';
import { EditorState } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { tags as t } from '@lezer/highlight';

const highlight = HighlightStyle.define([
  { tag: t.definition(t.propertyName), color: 'var(--tok-key)' },
  { tag: [t.string, t.special(t.string)], color: 'var(--tok-string)' },
  { tag: t.content, color: 'var(--tok-value)' },
  { tag: t.lineComment, color: 'var(--tok-comment)', fontStyle: 'italic' },
  { tag: [t.meta, t.keyword], color: 'var(--tok-meta)', fontWeight: '600' },
  { tag: [t.labelName, t.typeName], color: 'var(--tok-anchor)' },
  { tag: [t.separator, t.punctuation, t.squareBracket, t.brace], color: 'var(--tok-punct)' },
]);

const theme = EditorView.theme({
  '&': { height: '100%', fontSize: '13.5px', backgroundColor: 'var(--editor-bg)', color: 'var(--text)' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.55' },
  '.cm-content': { caretColor: 'var(--accent)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--accent)' },
  '&.cm-focused': { outline: 'none' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': {
    backgroundColor: 'var(--selection) !important',
  },
  '.cm-gutters': {
    backgroundColor: 'var(--editor-gutter)',
    color: 'var(--muted)',
    borderRight: '1px solid var(--border)',
  },
  '.cm-activeLine': { backgroundColor: 'var(--active-line)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--active-line)', color: 'var(--text)' },
  '.cm-tooltip': {
    backgroundColor: 'var(--panel)',
    color: 'var(--text)',
    border: '1px solid var(--border)',
    borderRadius: '8px',
    boxShadow: 'var(--shadow)',
    overflow: 'hidden',
  },
  '.cm-tooltip-lint': { maxWidth: 'min(520px, 90vw)' },
  '.cm-diagnostic': { padding: '6px 10px', fontFamily: 'var(--sans)', fontSize: '13px', lineHeight: '1.45' },
  '.cm-diagnostic-error': { borderLeft: '4px solid var(--error)' },
  '.cm-diagnostic-warning': { borderLeft: '4px solid var(--warning)' },
  '.cm-diagnostic-info': { borderLeft: '4px solid var(--info)' },
  '.cm-diagnosticSource': { fontFamily: 'var(--mono)', fontSize: '11.5px', color: 'var(--muted)', opacity: '1' },
  '.cm-diagnosticAction': {
    backgroundColor: 'var(--accent)',
    color: 'var(--on-accent)',
    borderRadius: '4px',
    padding: '1px 8px',
    font: 'inherit',
    fontSize: '12px',
  },
  '.cm-lintRange-error': { backgroundImage: 'var(--squiggle-error)' },
  '.cm-lintRange-warning': { backgroundImage: 'var(--squiggle-warning)' },
  '.cm-lintRange-info': { backgroundImage: 'var(--squiggle-info)' },
  '.cm-lintRange-active': { backgroundColor: 'var(--lint-active)' },
  '.cm-panels': { backgroundColor: 'var(--panel)', color: 'var(--text)' },
  '.cm-searchMatch': { backgroundColor: 'var(--search-match)' },
  '.cm-foldPlaceholder': { backgroundColor: 'var(--chip)', border: 'none', color: 'var(--muted)' },
});

/**
 * Creates the editor in `parent`; `onChange(update)` runs after every edit, `onSelection(update)`
 * after a move of the cursor alone.
 * @param {HTMLElement} parent
 * @param {{ doc: string, onChange: (update: import('@codemirror/view').ViewUpdate) => void, onSelection?: (update: import('@codemirror/view').ViewUpdate) => void }} options
 */
export function createEditor(parent, { doc, onChange, onSelection }) {
  const listener = EditorView.updateListener.of((update) => {
    if (update.docChanged) onChange(update);
    else if (update.selectionSet) onSelection?.(update);
  });
  return new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        lintGutter({ hoverTime: 150 }),
        foldGutter(),
        highlightSpecialChars(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        highlightActiveLine(),
        highlightSelectionMatches(),
        search({ top: true }),
        EditorState.tabSize.of(2),
        yaml(),
        syntaxHighlighting(highlight),
        theme,
        keymap.of([...defaultKeymap, ...historyKeymap, ...foldKeymap, ...searchKeymap, ...lintKeymap, indentWithTab]),
        EditorView.contentAttributes.of({ 'aria-label': 'Kubernetes manifest (YAML)', spellcheck: 'false' }),
        listener,
      ],
    }),
  });
}
