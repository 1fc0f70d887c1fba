// How the mail viewer shows a caught mail's html: in a sandboxed frame whose links open in a new tab.
//
// A link followed inside the frame loads its page into the frame, and the pages a mail links to (the console's
// unsubscribe page, the click redirect on the platform) rightly refuse to be framed ("refused to connect"). So every
// link of the mail gets a new tab: a <base target="_blank"> at the top of the document, and a link's own target
// (_self, _top, a named frame) is dropped so the base decides. The frame stays a sandbox for untrusted html: no
// scripts, no same origin, no forms, no top navigation; only popups, which escape the sandbox so the page a link
// opens works as it would from a mail client.

/** The frame's sandbox: popups (new tabs) are allowed and leave the sandbox; never scripts, never same origin. */
export const MAIL_FRAME_SANDBOX = 'allow-popups allow-popups-to-escape-sandbox';

// An <a> or <area> start tag, quoted attribute values included (a quoted value may hold a ">").
const LINK_TAG = /<(?:a|area)\b(?:[^>"']|"[^"]*"|'[^']*')*>/gi;
// One attribute of such a tag, read from the tag's start so a quoted value is taken whole (never split at a space).
const ATTRIBUTE = /\s+([^\s"'>/=]+)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?/g;
const BASE = '<base target="_blank">';

/** The mail's html with every link opening in a new tab: the links' own targets dropped, a base target added. */
export function linksInNewTab(html) {
  const retargeted = String(html ?? '').replace(LINK_TAG, (tag) =>
    tag.replace(ATTRIBUTE, (attribute, name) => (name.toLowerCase() === 'target' ? '' : attribute)),
  );
  // The base goes inside the head when there is one; before <html> or a doctype it would put the page in quirks mode.
  for (const opening of [/<head\b(?:[^>"']|"[^"]*"|'[^']*')*>/i, /<html\b(?:[^>"']|"[^"]*"|'[^']*')*>/i, /<!doctype\b[^>]*>/i]) {
    const found = opening.exec(retargeted);
    if (found) return retargeted.slice(0, found.index + found[0].length) + BASE + retargeted.slice(found.index + found[0].length);
  }
  return BASE + retargeted;
}
