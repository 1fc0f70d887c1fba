import { MantineProvider } from '@mantine/core';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createRef } from 'react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../web/src/app/i18n';
import { RichTextEditor, type RichTextHandle } from '../../web/src/components/rich-text/RichTextEditor';

// The editor component in happy-dom: it loads the HTML it is given without reporting a change, reloads when the
// page replaces the value (a type change empties the body), and reports clean HTML after an edit.

function renderEditor(value: string, onChange = vi.fn()) {
  const ref = createRef<RichTextHandle>();
  const i18n = createI18n('en');
  const view = render(
    <I18nextProvider i18n={i18n}>
      <MantineProvider>
        <RichTextEditor ref={ref} value={value} onChange={onChange} label="Body" testId="body" />
      </MantineProvider>
    </I18nextProvider>,
  );
  const rerender = (next: string) =>
    view.rerender(
      <I18nextProvider i18n={i18n}>
        <MantineProvider>
          <RichTextEditor ref={ref} value={next} onChange={onChange} label="Body" testId="body" />
        </MantineProvider>
      </I18nextProvider>,
    );
  return { ref, onChange, rerender };
}

describe('rich-text editor component', () => {
  it('shows the loaded HTML and does not report loading as an edit', async () => {
    const { onChange } = renderEditor('<h2>Title</h2><p>Hello <strong>{{ contact.name }}</strong></p>');
    const content = await screen.findByTestId('body-content');
    await waitFor(() => expect(content.querySelector('h2')?.textContent).toBe('Title'));
    expect(content.querySelector('strong')?.textContent).toBe('{{ contact.name }}');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('reports clean HTML after an insert, and reloads when the value is replaced', async () => {
    const { ref, onChange, rerender } = renderEditor('<p>Hello</p>');
    const content = await screen.findByTestId('body-content');
    await waitFor(() => expect(content.textContent).toBe('Hello'));
    act(() => ref.current!.insertText(' {{ contact.name }}'));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('<p>Hello {{ contact.name }}</p>'));
    act(() => ref.current!.insertHtml('<a href="{{ unsubscribe_url }}">Unsubscribe</a>'));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('<p>Hello {{ contact.name }}<a href="{{ unsubscribe_url }}">Unsubscribe</a></p>'));

    const calls = onChange.mock.calls.length;
    rerender('');
    await waitFor(() => expect(content.textContent).toBe(''));
    expect(onChange).toHaveBeenCalledTimes(calls); // replaced from outside: not an edit
  });

  it('has the toolbar the spec lists', async () => {
    renderEditor('');
    await screen.findByTestId('rte-toolbar');
    for (const id of [
      'bold',
      'italic',
      'underline',
      'strikethrough',
      'code',
      'color',
      'bullet',
      'number',
      'align-left',
      'align-center',
      'align-right',
      'align-justify',
      'link',
      'image',
    ]) {
      expect(screen.getByTestId(`rte-${id}`), id).toBeTruthy();
    }
    const blocks = [...(screen.getByTestId('rte-block') as HTMLSelectElement).options].map((o) => o.value);
    expect(blocks).toEqual(['paragraph', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'quote']);
  });
});

describe('rich-text editor: links that must not go missing or show wrong', () => {
  it('shows a placeholder link with the URL it is saved with, not https://{{ unsubscribe_url }}', async () => {
    const { ref, onChange } = renderEditor('<p>Bye</p>');
    const content = await screen.findByTestId('body-content');
    await waitFor(() => expect(content.textContent).toBe('Bye'));
    act(() => ref.current!.insertHtml('<a href="{{ unsubscribe_url }}">Unsubscribe</a>'));
    await waitFor(() => expect(content.querySelector('a')).not.toBeNull());
    await waitFor(() => expect(content.querySelector('a')!.getAttribute('href')).toBe('{{ unsubscribe_url }}'));
    expect(onChange).toHaveBeenLastCalledWith('<p>Bye<a href="{{ unsubscribe_url }}">Unsubscribe</a></p>');
  });

  it('keeps an edit when the page hands back the previous value after it (a late echo is not a new value)', async () => {
    const { ref, onChange, rerender } = renderEditor('<p>Hello</p>');
    const content = await screen.findByTestId('body-content');
    await waitFor(() => expect(content.textContent).toBe('Hello'));
    act(() => ref.current!.insertText(' there'));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('<p>Hello there</p>'));
    act(() => ref.current!.insertHtml('<a href="https://example.com/offer">offer</a>'));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('<p>Hello there<a href="https://example.com/offer">offer</a></p>'));
    // The page renders with the first edit only now: the editor keeps the link.
    rerender('<p>Hello there</p>');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(content.querySelector('a')?.textContent).toBe('offer');
    // A value the editor never reported is still loaded (a type change, a reset).
    rerender('<p>Replaced</p>');
    await waitFor(() => expect(content.textContent).toBe('Replaced'));
  });

  it('loads an earlier text set again after its echo has passed (the source view taken back to it)', async () => {
    const { ref, onChange, rerender } = renderEditor('<p>Hello</p>');
    const content = await screen.findByTestId('body-content');
    await waitFor(() => expect(content.textContent).toBe('Hello'));
    act(() => ref.current!.insertText(' there'));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('<p>Hello there</p>'));
    act(() => ref.current!.insertText(' again'));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('<p>Hello there again</p>'));
    // The page catches up with the editor, then sets the first edit's text again on its own.
    rerender('<p>Hello there again</p>');
    await new Promise((resolve) => setTimeout(resolve, 50));
    rerender('<p>Hello there</p>');
    await waitFor(() => expect(content.textContent).toBe('Hello there'));
  });

  it('links the words selected in the page even before the editor has heard of that selection', async () => {
    const { onChange } = renderEditor('<p>Read our offer today</p>');
    const content = await screen.findByTestId('body-content');
    await waitFor(() => expect(content.textContent).toBe('Read our offer today'));
    // The browser selects "offer", and Lexical hears of no selection change (it learns of them asynchronously).
    const text = content.querySelector('p span')?.firstChild ?? content.querySelector('p')!.firstChild!;
    const range = document.createRange();
    range.setStart(text, 'Read our '.length);
    range.setEnd(text, 'Read our offer'.length);
    const hold = (event: Event) => event.stopImmediatePropagation();
    window.addEventListener('selectionchange', hold, true);
    window.getSelection()!.removeAllRanges();
    window.getSelection()!.addRange(range);
    await new Promise((resolve) => setTimeout(resolve, 20));
    window.removeEventListener('selectionchange', hold, true);
    act(() => screen.getByTestId('rte-link').click());
    const url = await screen.findByTestId('rte-link-url');
    // Typing the URL moves the page's selection away from the words (into the popover's input).
    window.addEventListener('selectionchange', hold, true);
    window.getSelection()!.collapse(text, 0);
    act(() => {
      (url as HTMLInputElement).focus();
    });
    fireEvent.change(url, { target: { value: 'https://example.com/offer' } });
    act(() => screen.getByTestId('rte-link-save').click());
    window.removeEventListener('selectionchange', hold, true);
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('<p>Read our <a href="https://example.com/offer">offer</a> today</p>'));
  });
});
