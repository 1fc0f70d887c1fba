/** The bench's realistic newsletter html (about 60 KB, 40 links, images, an unsubscribe footer). */
export declare function newsletterHtml(): string;
