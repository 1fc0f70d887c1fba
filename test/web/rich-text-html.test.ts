import { createEditor, $getRoot, $isTextNode, type LexicalEditor, type TextNode } from 'lexical';
import { describe, expect, it } from 'vitest';
import {
  $insertImage,
  $insertPlainText,
  $readToolbarState,
  $setAlignment,
  $setBlockType,
  $setColor,
  $setLink,
  $toggleFormat,
  $toggleList,
  ALIGNMENTS,
  BLOCK_TYPES,
  TEXT_FORMATS,
} from '../../web/src/components/rich-text/actions';
import { $loadHtml, $saveHtml, cleanHtml, normalizeColor, richTextEditorConfig, unescapeLiquid } from '../../web/src/components/rich-text/html';

// The template editor's HTML must survive load -> edit -> save with the same structure for everything the
// toolbar can make. These run Lexical headless (no contenteditable) with the editor's own node set and HTML rules.

function newEditor(): LexicalEditor {
  return createEditor(richTextEditorConfig('test'));
}

function load(editor: LexicalEditor, html: string): void {
  editor.update(() => $loadHtml(editor, html), { discrete: true });
}

function save(editor: LexicalEditor): string {
  return editor.read(() => $saveHtml(editor));
}

function roundTrip(html: string): string {
  const editor = newEditor();
  load(editor, html);
  return save(editor);
}

/** Selects `text` inside the first text node that contains it, then runs the action on that selection. */
function editSelection(editor: LexicalEditor, text: string, action: () => void): void {
  editor.update(
    () => {
      const node = $getRoot()
        .getAllTextNodes()
        .find((n: TextNode) => n.getTextContent().includes(text));
      if (!node || !$isTextNode(node)) throw new Error(`no text "${text}"`);
      const start = node.getTextContent().indexOf(text);
      node.select(start, start + text.length);
      action();
    },
    { discrete: true },
  );
}

describe('rich-text HTML round trip (load -> save gives the same HTML)', () => {
  const cases: Record<string, string> = {
    paragraph: '<p>Hello {{ contact.name }}</p>',
    ...Object.fromEntries([1, 2, 3, 4, 5, 6].map((level) => [`heading ${level}`, `<h${level}>Title ${level}</h${level}>`])),
    bold: '<p>a <strong>bold</strong> word</p>',
    italic: '<p>an <em>italic</em> word</p>',
    underline: '<p>an <u>underlined</u> word</p>',
    strike: '<p>a <s>struck</s> word</p>',
    code: '<p>some <code>inline code</code></p>',
    'bold italic': '<p><em><strong>both</strong></em></p>',
    'underline strike': '<p><u><s>both lines</s></u></p>',
    'bulleted list': '<ul><li>one</li><li>two</li></ul>',
    'numbered list': '<ol><li>first</li><li>second</li></ol>',
    'list with formats': '<ul><li><strong>bold</strong> item</li><li><a href="https://example.com/">link</a> item</li></ul>',
    colour: '<p>plain <span style="color: #c92a2a">red</span> text</p>',
    'bold colour': '<p><strong style="color: #1971c2">blue bold</strong></p>',
    'code colour': '<p><code style="color: #2f9e44">green code</code></p>',
    ...Object.fromEntries(ALIGNMENTS.map((align) => [`align ${align}`, `<p style="text-align: ${align}">aligned</p>`])),
    'aligned heading': '<h2 style="text-align: center">Centred title</h2>',
    link: '<p>see <a href="https://example.com/offer?a=1&amp;b=2">the offer</a></p>',
    'placeholder link': '<p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p>',
    'mailto link': '<p><a href="mailto:team@example.com">write to us</a></p>',
    image: '<p><img src="https://example.com/logo.png" alt="Logo"></p>',
    'image with size': '<p><img src="https://example.com/a.png" alt="A" width="120" height="40"></p>',
    'spaces around an image': '<p>before <img src="https://example.com/a.png" alt="A"> after</p>',
    blockquote: '<blockquote>quoted words</blockquote>',
    'liquid operators': '<p>{% if contact.fields.age > 18 %}adult &amp; welcome{% endif %}</p>',
    'liquid loop': '<p>{% for a in contact.addresses %}{{ a.type }}: {{ a.value }} {% endfor %}</p>',
    everything:
      '<h1>Hi {{ contact.name }}</h1><p style="text-align: center"><strong>Bold</strong>, <em>italic</em>, <span style="color: #e8590c">orange</span></p>' +
      '<blockquote>quote</blockquote><ol><li>one</li></ol><p><a href="https://example.com/">go</a> <img src="https://example.com/i.png" alt="i"></p>',
  };

  it.each(Object.entries(cases))('%s', (_name, html) => {
    expect(roundTrip(html)).toBe(html);
  });

  it('saves an empty editor as an empty body', () => {
    expect(roundTrip('')).toBe('');
    expect(roundTrip('<p></p>')).toBe('');
  });

  it('wraps loose text in a paragraph and folds <b>/<i> into <strong>/<em>', () => {
    expect(roundTrip('plain text')).toBe('<p>plain text</p>');
    expect(roundTrip('<p><b>b</b> and <i>i</i></p>')).toBe('<p><strong>b</strong> and <em>i</em></p>');
  });

  it('reads colours written as rgb() and saves them as #rrggbb', () => {
    expect(roundTrip('<p><span style="color: rgb(201, 42, 42)">red</span></p>')).toBe('<p><span style="color: #c92a2a">red</span></p>');
    expect(normalizeColor('rgb(0, 0, 0)')).toBe('#000000');
    expect(normalizeColor('#ABCDEF')).toBe('#abcdef');
  });

  it('neutralises javascript: links but keeps placeholders', () => {
    expect(roundTrip('<p><a href="javascript:alert(1)">x</a></p>')).toBe('<p><a href="about:blank">x</a></p>');
    expect(roundTrip('<p><a href="{{ contact.fields.site }}">site</a></p>')).toBe('<p><a href="{{ contact.fields.site }}">site</a></p>');
  });

  it('cleanHtml drops editor classes and white-space styles; unescapeLiquid only touches Liquid tags', () => {
    expect(cleanHtml('<p class="x" dir="ltr"><span style="white-space: pre-wrap;">a</span><b><strong class="y">b</strong></b></p>')).toBe(
      '<p>a<strong>b</strong></p>',
    );
    expect(unescapeLiquid('a &gt; b {{ x | default: "&lt;none&gt;" }} {% if a &gt; 1 %}')).toBe('a &gt; b {{ x | default: "<none>" }} {% if a > 1 %}');
  });
});

describe('rich-text toolbar actions (load -> edit -> save)', () => {
  const start = '<p>Hello world</p>';

  function edited(text: string, action: () => void, html = start): string {
    const editor = newEditor();
    load(editor, html);
    editSelection(editor, text, action);
    const out = save(editor);
    // What an edit produced loads and saves again unchanged.
    expect(roundTrip(out)).toBe(out);
    return out;
  }

  it.each(BLOCK_TYPES.filter((b) => b !== 'paragraph'))('block type %s', (block) => {
    const tag = block === 'quote' ? 'blockquote' : block;
    expect(edited('world', () => $setBlockType(block))).toBe(`<${tag}>Hello world</${tag}>`);
  });

  it('block type paragraph turns a heading back into a paragraph', () => {
    expect(edited('world', () => $setBlockType('paragraph'), '<h3>Hello world</h3>')).toBe(start);
  });

  const formatTags = { bold: 'strong', italic: 'em', underline: 'u', strikethrough: 's', code: 'code' } as const;
  it.each(TEXT_FORMATS)('format %s on the selected word, and off again', (format) => {
    const tag = formatTags[format];
    const on = edited('world', () => $toggleFormat(format));
    expect(on).toBe(`<p>Hello <${tag}>world</${tag}></p>`);
    expect(edited('world', () => $toggleFormat(format), on)).toBe(start);
  });

  it('two formats on one word', () => {
    const editor = newEditor();
    load(editor, start);
    editSelection(editor, 'world', () => {
      $toggleFormat('bold');
      $toggleFormat('italic');
    });
    expect(save(editor)).toBe('<p>Hello <em><strong>world</strong></em></p>');
  });

  it('colour on and off', () => {
    const red = edited('world', () => $setColor('#C92A2A'));
    expect(red).toBe('<p>Hello <span style="color: #c92a2a">world</span></p>');
    expect(edited('world', () => $setColor(null), red)).toBe(start);
  });

  it.each(ALIGNMENTS)('alignment %s', (align) => {
    expect(edited('world', () => $setAlignment(align))).toBe(`<p style="text-align: ${align}">Hello world</p>`);
  });

  it('bulleted and numbered lists, and back to a paragraph', () => {
    const bullets = edited('world', () => $toggleList('bullet'));
    expect(bullets).toBe('<ul><li>Hello world</li></ul>');
    expect(edited('world', () => $toggleList('number'), bullets)).toBe('<ol><li>Hello world</li></ol>');
    expect(edited('world', () => $toggleList('bullet'), bullets)).toBe(start);
  });

  it('link: insert, edit, remove', () => {
    const linked = edited('world', () => $setLink('https://example.com/a'));
    expect(linked).toBe('<p>Hello <a href="https://example.com/a">world</a></p>');
    const editor = newEditor();
    load(editor, linked);
    editor.update(
      () => {
        const node = $getRoot()
          .getAllTextNodes()
          .find((n) => n.getTextContent() === 'world')!;
        node.select(2, 2); // the cursor inside the link
        expect($readToolbarState().link).toBe('https://example.com/a');
        $setLink('{{ unsubscribe_url }}');
      },
      { discrete: true },
    );
    const changed = save(editor);
    expect(changed).toBe('<p>Hello <a href="{{ unsubscribe_url }}">world</a></p>');
    expect(edited('world', () => $setLink(null), changed)).toBe(start);
  });

  it('image by URL at the cursor', () => {
    expect(edited('world', () => $insertImage(' https://example.com/logo.png ', 'Logo'))).toBe(
      '<p>Hello <img src="https://example.com/logo.png" alt="Logo"></p>',
    );
  });

  it('placeholder text at the cursor', () => {
    const editor = newEditor();
    load(editor, start);
    editor.update(
      () => {
        const node = $getRoot().getAllTextNodes()[0];
        node.select(6, 6);
        $insertPlainText('{{ contact.name }} ');
      },
      { discrete: true },
    );
    expect(save(editor)).toBe('<p>Hello {{ contact.name }} world</p>');
  });

  it('the toolbar state reflects the selection', () => {
    const editor = newEditor();
    load(editor, '<h2 style="text-align: right"><strong style="color: #2f9e44">Big</strong> news</h2>');
    let state = null as ReturnType<typeof $readToolbarState> | null;
    editor.update(
      () => {
        $getRoot().getAllTextNodes()[0].select(1, 2);
        state = $readToolbarState();
      },
      { discrete: true },
    );
    expect(state).toMatchObject({ block: 'h2', align: 'right', color: '#2f9e44', link: null, list: null });
    expect(state!.formats).toEqual({ bold: true, italic: false, underline: false, strikethrough: false, code: false });
  });
});
