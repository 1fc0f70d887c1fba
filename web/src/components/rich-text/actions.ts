import { $generateNodesFromDOM } from '@lexical/html';
import { $isLinkNode, $toggleLink } from '@lexical/link';
import { $insertList, $isListNode, $removeList, ListNode } from '@lexical/list';
import { $createHeadingNode, $createQuoteNode, $isHeadingNode, $isQuoteNode, type HeadingTagType } from '@lexical/rich-text';
import { $getSelectionStyleValueForProperty, $patchStyleText, $setBlocksType } from '@lexical/selection';
import { $getNearestBlockElementAncestorOrThrow, $getNearestNodeOfType } from '@lexical/utils';
import {
  $createParagraphNode,
  $findMatchingParent,
  $getRoot,
  $getSelection,
  $isRangeSelection,
  $isRootOrShadowRoot,
  $isTextNode,
  TEXT_TYPE_TO_FORMAT,
  type ElementFormatType,
  type LexicalEditor,
  type RangeSelection,
  type TextFormatType,
} from 'lexical';
import { $createImageNode } from './ImageNode';
import { normalizeColor } from './html';

// What the toolbar does, as functions on the editor's selection (run inside editor.update), so the toolbar
// buttons and the tests use the same code.

export const BLOCK_TYPES = ['paragraph', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'quote'] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];
export const TEXT_FORMATS = ['bold', 'italic', 'underline', 'strikethrough', 'code'] as const satisfies readonly TextFormatType[];
export type TextFormat = (typeof TEXT_FORMATS)[number];
export const ALIGNMENTS = ['left', 'center', 'right', 'justify'] as const satisfies readonly ElementFormatType[];
export type Alignment = (typeof ALIGNMENTS)[number];
export type ListKind = 'bullet' | 'number';

/** The colours offered for text (email-safe, readable on white). */
export const TEXT_COLORS = ['#000000', '#495057', '#c92a2a', '#e8590c', '#f08c00', '#2f9e44', '#1971c2', '#6741d9', '#c2255c'];

/** What the toolbar shows for the current selection. */
export interface ToolbarState {
  block: BlockType | 'list';
  list: ListKind | null;
  formats: Record<TextFormat, boolean>;
  align: Alignment | '';
  color: string;
  link: string | null;
}

export const EMPTY_TOOLBAR_STATE: ToolbarState = {
  block: 'paragraph',
  list: null,
  formats: { bold: false, italic: false, underline: false, strikethrough: false, code: false },
  align: '',
  color: '',
  link: null,
};

function $rangeSelection(): RangeSelection | null {
  const selection = $getSelection();
  return $isRangeSelection(selection) ? selection : null;
}

/** Makes the selected blocks paragraphs, headings h1-h6 or a blockquote (leaving a list first). */
export function $setBlockType(type: BlockType): void {
  const selection = $rangeSelection();
  if (!selection) return;
  const anchor = selection.anchor.getNode();
  if ($getNearestNodeOfType(anchor, ListNode)) $removeList();
  const again = $rangeSelection();
  if (!again) return;
  if (type === 'paragraph') $setBlocksType(again, () => $createParagraphNode());
  else if (type === 'quote') $setBlocksType(again, () => $createQuoteNode());
  else $setBlocksType(again, () => $createHeadingNode(type as HeadingTagType));
}

/**
 * Turns bold, italic, underline, strikethrough or inline code on or off: off when every selected piece of text
 * has it already, else on (a collapsed cursor toggles the format of what is typed next).
 */
export function $toggleFormat(format: TextFormat): void {
  const selection = $rangeSelection();
  if (!selection) return;
  const texts = selection.isCollapsed() ? [] : selection.getNodes().filter($isTextNode);
  if (!texts.length) {
    selection.formatText(format);
    return;
  }
  const everywhere = texts.every((node) => node.hasFormat(format));
  selection.formatText(format, everywhere ? 0 : TEXT_TYPE_TO_FORMAT[format]);
}

/** Colours the selected text (null removes the colour). */
export function $setColor(color: string | null): void {
  const selection = $rangeSelection();
  if (selection) $patchStyleText(selection, { color: color ? normalizeColor(color) : null });
}

/** Aligns the blocks the selection touches. */
export function $setAlignment(align: Alignment): void {
  const selection = $rangeSelection();
  if (!selection) return;
  const blocks = new Set(selection.getNodes().map((node) => $getNearestBlockElementAncestorOrThrow(node)));
  if (!blocks.size) blocks.add($getNearestBlockElementAncestorOrThrow(selection.anchor.getNode()));
  for (const block of blocks) block.setFormat(align);
}

/** Makes the selected blocks a bulleted or numbered list, or turns that list back into paragraphs. */
export function $toggleList(kind: ListKind): void {
  const selection = $rangeSelection();
  if (!selection) return;
  const list = $getNearestNodeOfType(selection.anchor.getNode(), ListNode);
  if (list && list.getListType() === kind) $removeList();
  else $insertList(kind);
}

/** Links the selected text to a URL, changes the link around the cursor, or removes it (null). */
export function $setLink(url: string | null): void {
  const selection = $rangeSelection();
  if (!selection) return;
  const trimmed = url?.trim() ?? '';
  if (!trimmed) {
    $toggleLink(null);
    return;
  }
  const link = $findMatchingParent(selection.anchor.getNode(), $isLinkNode);
  if (link && selection.isCollapsed()) link.setURL(trimmed);
  else $toggleLink({ url: trimmed, rel: null, target: null, title: null });
}

/** Inserts an image by URL at the cursor. */
export function $insertImage(src: string, alt = ''): void {
  const selection = $rangeSelection() ?? ($getRoot().selectEnd() as RangeSelection);
  selection.insertNodes([$createImageNode({ src: src.trim(), alt: alt.trim() })]);
}

/** Inserts text at the cursor (a placeholder such as {{ contact.name }}); at the end when nothing is selected. */
export function $insertPlainText(text: string): void {
  const selection = $rangeSelection() ?? ($getRoot().selectEnd() as RangeSelection);
  selection.insertText(text);
}

/** Inserts an HTML snippet at the cursor (a placeholder example that is a link). */
export function $insertHtmlSnippet(editor: LexicalEditor, html: string): void {
  const dom = new DOMParser().parseFromString(html, 'text/html');
  const nodes = $generateNodesFromDOM(editor, dom);
  const selection = $rangeSelection() ?? ($getRoot().selectEnd() as RangeSelection);
  selection.insertNodes(nodes);
}

/** Reads the toolbar state of the current selection (inside editor.read or an update listener). */
export function $readToolbarState(): ToolbarState {
  const selection = $rangeSelection();
  if (!selection) return EMPTY_TOOLBAR_STATE;
  const anchor = selection.anchor.getNode();
  const top = $isRootOrShadowRoot(anchor) ? null : ($findMatchingParent(anchor, (node) => $isRootOrShadowRoot(node.getParent())) ?? null);
  const list = $getNearestNodeOfType(anchor, ListNode);
  let block: ToolbarState['block'] = 'paragraph';
  if (list) block = 'list';
  else if ($isHeadingNode(top)) block = top.getTag() as BlockType;
  else if ($isQuoteNode(top)) block = 'quote';
  const element = $isRootOrShadowRoot(anchor) ? null : $getNearestBlockElementAncestorOrThrow(anchor);
  const format = element?.getFormatType() ?? '';
  const link = $findMatchingParent(anchor, $isLinkNode);
  // A range shows a format when all of its text has it; a cursor shows the format of what is typed next.
  const texts = selection.isCollapsed() ? [] : selection.getNodes().filter($isTextNode);
  return {
    block,
    list: $isListNode(list) ? (list.getListType() === 'number' ? 'number' : 'bullet') : null,
    formats: Object.fromEntries(TEXT_FORMATS.map((f) => [f, texts.length ? texts.every((node) => node.hasFormat(f)) : selection.hasFormat(f)])) as Record<
      TextFormat,
      boolean
    >,
    align: (ALIGNMENTS as readonly string[]).includes(format) ? (format as Alignment) : '',
    color: $getSelectionStyleValueForProperty(selection, 'color', ''),
    link: link ? link.getURL() : null,
  };
}
