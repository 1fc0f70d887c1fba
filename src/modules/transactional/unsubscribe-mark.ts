// A category send's template is rendered when the call comes, before the message has an id; its unsubscribe link
// needs one (the link's token names the message, so the page knows the category). The template renders this mark
// where {{ unsubscribe_url }} is, and the sending engine puts the message's own link in its place (compose.ts).
export const UNSUBSCRIBE_MARK = 'https://unsubscribe.relay.invalid/this-message';
