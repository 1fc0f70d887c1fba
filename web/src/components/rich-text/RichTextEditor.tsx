import { Input, Textarea } from '@mantine/core';
import { LexicalComposer } from '@lexical/react/LexicalComposer';
import { useLexicalComposerContext } from '@lexical/react/LexicalComposerContext';
import { ContentEditable } from '@lexical/react/LexicalContentEditable';
import { LexicalErrorBoundary } from '@lexical/react/LexicalErrorBoundary';
import { HistoryPlugin } from '@lexical/react/LexicalHistoryPlugin';
import { LinkPlugin } from '@lexical/react/LexicalLinkPlugin';
import { ListPlugin } from '@lexical/react/LexicalListPlugin';
import { RichTextPlugin } from '@lexical/react/LexicalRichTextPlugin';
import { $isLinkNode, LinkNode } from '@lexical/link';
import { $getNodeByKey, HISTORY_MERGE_TAG } from 'lexical';
import { useEffect, useImperativeHandle, useMemo, useRef, useState, type ReactNode, type Ref } from 'react';
import { $insertHtmlSnippet, $insertPlainText } from './actions';
import { $loadHtml, $saveHtml, hasPlaceholder, richTextEditorConfig } from './html';
import { Toolbar } from './Toolbar';
import './rich-text.css';

/** What a page can do with an open editor: insert at the cursor (placeholders), focus it. */
export interface RichTextHandle {
  insertText: (text: string) => void;
  insertHtml: (html: string) => void;
  focus: () => void;
}

export interface RichTextEditorProps {
  /** The HTML being edited. */
  value: string;
  /** Receives clean HTML after each edit ('' when empty). Loading a value does not call it. */
  onChange: (html: string) => void;
  label?: ReactNode;
  description?: ReactNode;
  error?: ReactNode;
  required?: boolean;
  disabled?: boolean;
  /** data-testid of the wrapper; the editable area is `<testId>-content`, the HTML source `<testId>-source`. */
  testId?: string;
  /** Called when the editor (or its source view) gets the focus. */
  onFocus?: () => void;
  ref?: Ref<RichTextHandle>;
}

const LOAD_TAG = 'template-html-load';
/** How many of its own recent reports the editor recognises when the page hands them back late. */
const ECHOES_KEPT = 20;

/** Keeps the editor and the `value` in step: new values are loaded, user edits are reported as HTML. */
function ValuePlugin({ value, onChange }: { value: string; onChange: (html: string) => void }) {
  const [editor] = useLexicalComposerContext();
  const last = useRef<string | null>(null);
  // What the editor reported lately. The page's value can arrive one edit behind (the effect below runs after
  // paint, and a second edit may be reported before it): such an echo of our own report is not a new value, and
  // loading it would drop the newer edit (a link just applied went missing that way).
  const reported = useRef<string[]>([]);
  const report = useRef(onChange);
  report.current = onChange;

  useEffect(() => {
    // Echoes come back in the order they were reported: one that arrives ends every report before it, so a value
    // reported long ago and set again later (the source view back to an earlier text) is loaded, not taken for one.
    const echo = reported.current.indexOf(value);
    if (echo >= 0) {
      reported.current = reported.current.slice(echo + 1);
      return;
    }
    if (value === last.current) return;
    last.current = value;
    reported.current = [];
    editor.update(() => $loadHtml(editor, value), { tag: [LOAD_TAG, HISTORY_MERGE_TAG] });
  }, [editor, value]);

  useEffect(
    () =>
      editor.registerUpdateListener(({ dirtyElements, dirtyLeaves, tags }) => {
        if (tags.has(LOAD_TAG) || (dirtyElements.size === 0 && dirtyLeaves.size === 0)) return;
        const html = editor.read(() => $saveHtml(editor));
        if (html === last.current) return;
        last.current = html;
        reported.current = [...reported.current.slice(-(ECHOES_KEPT - 1)), html];
        report.current(html);
      }),
    [editor],
  );
  return null;
}

/**
 * Shows a link whose URL is a placeholder ({{ unsubscribe_url }}) with that URL in the editor, as it is saved.
 * Lexical's link node would write https://{{ unsubscribe_url }} into the editing view's href.
 */
function PlaceholderHrefPlugin() {
  const [editor] = useLexicalComposerContext();
  useEffect(
    () =>
      editor.registerMutationListener(LinkNode, (mutations) => {
        editor.getEditorState().read(() => {
          for (const [key, mutation] of mutations) {
            if (mutation === 'destroyed') continue;
            const node = $getNodeByKey(key);
            const element = editor.getElementByKey(key);
            if ($isLinkNode(node) && element && hasPlaceholder(node.getURL())) element.setAttribute('href', node.getURL());
          }
        });
      }),
    [editor],
  );
  return null;
}

/** Exposes insert and focus to the page through the ref. */
function HandlePlugin({ handleRef }: { handleRef?: Ref<RichTextHandle> }) {
  const [editor] = useLexicalComposerContext();
  useImperativeHandle(
    handleRef,
    () => ({
      insertText: (text) => {
        editor.update(() => $insertPlainText(text));
        editor.focus();
      },
      insertHtml: (html) => {
        editor.update(() => $insertHtmlSnippet(editor, html));
        editor.focus();
      },
      focus: () => editor.focus(),
    }),
    [editor],
  );
  return null;
}

/**
 * The template body editor (Lexical): headings 1-6, bold, italic, underline, strike, code, lists, colours,
 * alignment, links, images by URL and blockquotes, with an HTML source view. It edits HTML and hands back HTML.
 */
export function RichTextEditor({ value, onChange, label, description, error, required, disabled, testId = 'rich-text', onFocus, ref }: RichTextEditorProps) {
  const [source, setSource] = useState(false);
  const initialConfig = useMemo(() => ({ ...richTextEditorConfig(), editable: !disabled, onError: (e: Error) => console.error(e) }), [disabled]);
  return (
    <Input.Wrapper label={label} description={description} error={error} withAsterisk={required}>
      <div className="rte" data-testid={testId} data-invalid={error ? 'true' : undefined} onFocusCapture={onFocus}>
        <LexicalComposer initialConfig={initialConfig}>
          <Toolbar sourceMode={source} onToggleSource={() => setSource((on) => !on)} disabled={disabled} />
          {source && (
            <Textarea
              variant="unstyled"
              className="rte-source"
              autosize
              minRows={12}
              spellCheck={false}
              data-testid={`${testId}-source`}
              value={value}
              disabled={disabled}
              onChange={(event) => onChange(event.currentTarget.value)}
            />
          )}
          <div hidden={source}>
            <RichTextPlugin
              contentEditable={
                <ContentEditable
                  className="rte-content"
                  data-testid={`${testId}-content`}
                  aria-label={typeof label === 'string' ? label : undefined}
                  aria-invalid={Boolean(error)}
                />
              }
              ErrorBoundary={LexicalErrorBoundary}
            />
          </div>
          <HistoryPlugin />
          <ListPlugin />
          <LinkPlugin />
          <ValuePlugin value={value} onChange={onChange} />
          <PlaceholderHrefPlugin />
          <HandlePlugin handleRef={ref} />
        </LexicalComposer>
      </div>
    </Input.Wrapper>
  );
}
