/// <reference types="vite/client" />

/** The console's own version, from package.json at build time. */
declare const __APP_VERSION__: string;
