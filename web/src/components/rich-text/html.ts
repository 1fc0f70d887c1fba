import { $generateHtmlFromNodes, $generateNodesFromDOM } from '@lexical/html';
import { $isLinkNode, LinkNode } from '@lexical/link';
import { ListItemNode, ListNode } from '@lexical/list';
import { HeadingNode, QuoteNode } from '@lexical/rich-text';
import {
  $createParagraphNode,
  $getRoot,
  $isDecoratorNode,
  $isElementNode,
  $isTextNode,
  TextNode,
  type CreateEditorArgs,
  type DOMConversion,
  type DOMConversionMap,
  type DOMConversionOutput,
  type LexicalEditor,
  type LexicalNode,
} from 'lexical';
import { ImageNode } from './ImageNode';

// The template body is HTML. The editor loads it into Lexical nodes and writes it back as plain, clean HTML
// (no editor classes or white-space styles), so what the toolbar can make survives load -> edit -> save as the
// same structure: <h1>-<h6>, <p>, <blockquote>, <ul>/<ol>/<li>, <strong>, <em>, <u>, <s>, <code>, <a href>,
// <img src alt>, colour as style="color: #rrggbb" and alignment as style="text-align: ...".

/** Node classes the editor knows (besides paragraphs and text). */
export const RICH_TEXT_NODES = [HeadingNode, QuoteNode, ListNode, ListItemNode, LinkNode, ImageNode];

/** Inline tags whose colour is read back from style="color: ..." (the ones the export puts the colour on). */
const COLOR_TAGS = ['span', 'strong', 'b', 'em', 'i', 'u', 's', 'code'] as const;

/** The CSS declarations of a style attribute, by property (lower-case), in their written order. */
export function parseStyle(style: string | null | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (style ?? '').split(';')) {
    const colon = part.indexOf(':');
    if (colon < 0) continue;
    const property = part.slice(0, colon).trim().toLowerCase();
    const value = part.slice(colon + 1).trim();
    if (property && value) out.set(property, value);
  }
  return out;
}

/** Writes declarations back as a style attribute ('color: #e03131; text-align: center'). */
export function formatStyle(declarations: Map<string, string>): string {
  return [...declarations].map(([property, value]) => `${property}: ${value}`).join('; ');
}

/** '#e03131' for 'rgb(224, 49, 49)' (browsers may report colours either way); other values unchanged. */
export function normalizeColor(value: string): string {
  const match = /^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*1(?:\.0+)?\s*)?\)$/i.exec(value.trim());
  if (!match) return value.trim().toLowerCase();
  return `#${match
    .slice(1, 4)
    .map((n) => Math.min(255, Number(n)).toString(16).padStart(2, '0'))
    .join('')}`;
}

/** A text node's style with its colour set (null removes it). */
export function styleWithColor(style: string, color: string | null): string {
  const declarations = parseStyle(style);
  if (color) declarations.set('color', normalizeColor(color));
  else declarations.delete('color');
  return formatStyle(declarations);
}

/** Reads the colour of an inline element into its text: the default conversion of the tag, plus the colour. */
function colorConversion(tag: (typeof COLOR_TAGS)[number]) {
  return (element: HTMLElement): DOMConversion | null => {
    const color = parseStyle(element.getAttribute('style')).get('color');
    if (!color) return null;
    return {
      priority: 4,
      conversion: (dom: HTMLElement): DOMConversionOutput => {
        // TextNode's own conversion for the tag (bold for <strong>, ...) is registered on the class by now.
        const base = TextNode.importDOM?.()?.[tag]?.(dom);
        const output: DOMConversionOutput = base ? (base.conversion(dom) ?? { node: null }) : { node: null };
        const inner = output.forChild;
        return {
          ...output,
          forChild: (node: LexicalNode, parent) => {
            const result = inner ? inner(node, parent) : node;
            if ($isTextNode(result)) result.setStyle(styleWithColor(result.getStyle(), color));
            return result;
          },
        };
      },
    };
  };
}

/** True when a URL holds a Liquid placeholder ({{ unsubscribe_url }}): kept exactly as written. */
export function hasPlaceholder(url: string): boolean {
  return url.includes('{{') || url.includes('{%');
}

/** The href written for a link: placeholders and safe URLs as typed, unsafe schemes (javascript:) neutralised. */
export function exportHref(node: LinkNode): string {
  const url = node.getURL();
  if (hasPlaceholder(url) && !/^\s*(?:javascript|data|vbscript):/i.test(url)) return url;
  return node.sanitizeUrl(url);
}

/** The HTML import and export rules of the template editor (colours in, links with placeholders out). */
export const RICH_TEXT_HTML: NonNullable<CreateEditorArgs['html']> = {
  import: Object.fromEntries(COLOR_TAGS.map((tag) => [tag, colorConversion(tag)])) as DOMConversionMap,
  export: new Map([
    [
      LinkNode,
      (editor: LexicalEditor, node: LexicalNode) => {
        if (!$isLinkNode(node)) return node.exportDOM(editor);
        const output = node.exportDOM(editor);
        const element = output.element as HTMLElement | null;
        element?.setAttribute('href', exportHref(node));
        return output;
      },
    ],
  ]),
};

/** Lexical editor settings shared by the editor component and the tests. */
export function richTextEditorConfig(namespace = 'template-body'): CreateEditorArgs & { namespace: string } {
  return {
    namespace,
    nodes: RICH_TEXT_NODES,
    html: RICH_TEXT_HTML,
    theme: RICH_TEXT_THEME,
    onError: (error: Error) => {
      throw error;
    },
  };
}

/** Class names for the editing view only (the saved HTML never carries them). */
export const RICH_TEXT_THEME = {
  paragraph: 'rte-p',
  quote: 'rte-quote',
  link: 'rte-link',
  list: { ul: 'rte-ul', ol: 'rte-ol', listitem: 'rte-li' },
  text: {
    bold: 'rte-bold',
    italic: 'rte-italic',
    underline: 'rte-underline',
    strikethrough: 'rte-strike',
    underlineStrikethrough: 'rte-underline-strike',
    code: 'rte-code',
  },
};

/**
 * Replaces the editor's content with the nodes of an HTML text (inside editor.update). Inline content at the top
 * level is wrapped in paragraphs, and an empty text gives one empty paragraph.
 */
export function $loadHtml(editor: LexicalEditor, html: string): void {
  const dom = new DOMParser().parseFromString(html || '', 'text/html');
  keepSpacesNextToImages(dom.body);
  const nodes = $generateNodesFromDOM(editor, dom);
  const root = $getRoot();
  root.clear();
  let paragraph: ReturnType<typeof $createParagraphNode> | null = null;
  for (const node of nodes) {
    const inline = $isTextNode(node) || ($isElementNode(node) && node.isInline()) || ($isDecoratorNode(node) && node.isInline());
    if (inline) {
      if (!paragraph) {
        paragraph = $createParagraphNode();
        root.append(paragraph);
      }
      paragraph.append(node);
    } else {
      paragraph = null;
      root.append(node);
    }
  }
  if (root.getChildrenSize() === 0) root.append($createParagraphNode());
}

/**
 * Lexical drops a space between text and an image ('Hello <img>') because an image holds no text. The space is
 * moved into a white-space: pre-wrap span, which Lexical keeps as typed (and the saved HTML unwraps again).
 */
function keepSpacesNextToImages(root: HTMLElement): void {
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node as Text);
  const kept = () => {
    const span = root.ownerDocument.createElement('span');
    span.setAttribute('style', 'white-space: pre-wrap');
    span.textContent = ' ';
    return span;
  };
  for (const text of texts) {
    const isImage = (node: Node | null) => node?.nodeName === 'IMG';
    if (isImage(text.nextSibling) && /\s$/.test(text.data)) {
      text.data = text.data.replace(/\s+$/, '');
      text.after(kept());
    }
    if (isImage(text.previousSibling) && /^\s/.test(text.data)) {
      text.data = text.data.replace(/^\s+/, '');
      text.before(kept());
    }
  }
}

/** The editor's content as clean HTML (inside editor.read or update); '' when there is nothing in it. */
export function $saveHtml(editor: LexicalEditor): string {
  const root = $getRoot();
  const empty = root.getTextContent().trim() === '' && !root.getAllTextNodes().length && !hasDecorators(root);
  if (empty) return '';
  return cleanHtml($generateHtmlFromNodes(editor, null));
}

function hasDecorators(node: LexicalNode): boolean {
  if ($isDecoratorNode(node)) return true;
  return $isElementNode(node) && node.getChildren().some(hasDecorators);
}

const KEEP_STYLE: Record<string, string[]> = {
  // Colour sits on the inline element of the text; alignment on blocks.
  inline: ['color'],
  block: ['text-align'],
};
const BLOCK_TAGS = new Set(['P', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'BLOCKQUOTE', 'LI', 'UL', 'OL']);
const DROPPED_ATTRIBUTES = ['class', 'dir', 'spellcheck', 'value', 'data-lexical-text', 'data-lexical-decorator'];

/**
 * Turns Lexical's HTML into the plain HTML a template keeps: no editor classes, no white-space styles, <b>/<i>
 * wrappers folded into <strong>/<em>, bare <span>s unwrapped, colours as #rrggbb, and Liquid tags ({{ }}, {% %})
 * left unescaped so their operators (>, <, &) still work.
 */
export function cleanHtml(html: string): string {
  const container = document.createElement('div');
  container.innerHTML = html;
  cleanChildren(container);
  container.normalize();
  return unescapeLiquid(container.innerHTML);
}

function cleanChildren(parent: Element): void {
  for (const child of [...parent.children]) {
    cleanChildren(child);
    cleanElement(child);
  }
}

function cleanElement(element: Element): void {
  for (const name of DROPPED_ATTRIBUTES) element.removeAttribute(name);
  const style = element.getAttribute('style');
  if (style !== null) {
    const keep = BLOCK_TAGS.has(element.tagName) ? KEEP_STYLE.block : KEEP_STYLE.inline;
    const declarations = new Map([...parseStyle(style)].filter(([property]) => keep.includes(property)));
    const color = declarations.get('color');
    if (color) declarations.set('color', normalizeColor(color));
    if (declarations.size) element.setAttribute('style', formatStyle(declarations));
    else element.removeAttribute('style');
  }
  const tag = element.tagName;
  if (tag === 'B' || tag === 'I') {
    const inner = tag === 'B' ? 'STRONG' : 'EM';
    const only = element.childNodes.length === 1 ? element.firstElementChild : null;
    if (only && only.tagName === inner && !element.attributes.length) unwrap(element);
    else rename(element, inner.toLowerCase());
  } else if (tag === 'SPAN' && !element.attributes.length) {
    unwrap(element);
  }
}

function unwrap(element: Element): void {
  element.replaceWith(...element.childNodes);
}

function rename(element: Element, tag: string): void {
  const next = element.ownerDocument.createElement(tag);
  for (const attribute of [...element.attributes]) next.setAttribute(attribute.name, attribute.value);
  next.append(...element.childNodes);
  element.replaceWith(next);
}

// Quotes are left alone: they are only escaped inside attribute values, where unescaping would end the value.
const ENTITIES: Record<string, string> = { '&gt;': '>', '&lt;': '<', '&amp;': '&', '&nbsp;': ' ' };

/** Undoes HTML escaping inside Liquid output and tag delimiters ('{% if a &gt; 1 %}' -> '{% if a > 1 %}'). */
export function unescapeLiquid(html: string): string {
  return html.replace(/\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g, (tag) => tag.replace(/&(?:gt|lt|amp|nbsp);|\u00a0/g, (entity) => ENTITIES[entity] ?? ' '));
}
