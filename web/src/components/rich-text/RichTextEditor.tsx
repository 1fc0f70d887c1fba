import { Input, Textarea } from '@mantine/core';
import { LexicalComposer } from '@lexical/react/LexicalComposer';
import { useLexicalComposerContext } from '@lexical/react/LexicalComposerContext';
import { ContentEditable } from '@lexical/react/LexicalContentEditable';
import { LexicalErrorBoundary } from '@lexical/react/LexicalErrorBoundary';
import { HistoryPlugin } from '@lexical/react/LexicalHistoryPlugin';
import { LinkPlugin } from '@lexical/react/LexicalLinkPlugin';
import { ListPlugin } from '@lexical/react/LexicalListPlugin';
import { RichTextPlugin } from '@lexical/react/LexicalRichTextPlugin';
import { HISTORY_MERGE_TAG } from 'lexical';
import { useEffect, useImperativeHandle, useMemo, useRef, useState, type ReactNode, type Ref } from 'react';
import { $insertHtmlSnippet, $insertPlainText } from './actions';
import { $loadHtml, $saveHtml, richTextEditorConfig } from './html';
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

/** Keeps the editor and the `value` in step: new values are loaded, user edits are reported as HTML. */
function ValuePlugin({ value, onChange }: { value: string; onChange: (html: string) => void }) {
  const [editor] = useLexicalComposerContext();
  const last = useRef<string | null>(null);
  const report = useRef(onChange);
  report.current = onChange;

  useEffect(() => {
    if (value === last.current) return;
    last.current = value;
    editor.update(() => $loadHtml(editor, value), { tag: [LOAD_TAG, HISTORY_MERGE_TAG] });
  }, [editor, value]);

  useEffect(
    () =>
      editor.registerUpdateListener(({ dirtyElements, dirtyLeaves, tags }) => {
        if (tags.has(LOAD_TAG) || (dirtyElements.size === 0 && dirtyLeaves.size === 0)) return;
        const html = editor.read(() => $saveHtml(editor));
        if (html === last.current) return;
        last.current = html;
        report.current(html);
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
              contentEditable={<ContentEditable className="rte-content" data-testid={`${testId}-content`} aria-label={typeof label === 'string' ? label : undefined} aria-invalid={Boolean(error)} />}
              ErrorBoundary={LexicalErrorBoundary}
            />
          </div>
          <HistoryPlugin />
          <ListPlugin />
          <LinkPlugin />
          <ValuePlugin value={value} onChange={onChange} />
          <HandlePlugin handleRef={ref} />
        </LexicalComposer>
      </div>
    </Input.Wrapper>
  );
}
