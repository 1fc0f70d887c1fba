import { API_KEY_HEADER } from '../../shared/contracts/account';

// The Swagger UI page: our own few lines around swagger-ui-dist's bundle and stylesheet, which the console build
// copies to /api-docs/ (web/vite.config.ts) and the assets binding serves: same origin, no CDN.

export const SWAGGER_ASSETS = { css: '/api-docs/swagger-ui.css', js: '/api-docs/swagger-ui-bundle.js' } as const;
export const OPENAPI_PATH = '/api/openapi.json';
/** The few lines that start Swagger UI, served as a file: the Content-Security-Policy allows no inline script. */
export const SWAGGER_INIT_PATH = '/api/swagger-ui/init.js';

export const swaggerInitScript = `window.ui = SwaggerUIBundle({ url: '${OPENAPI_PATH}', dom_id: '#swagger-ui', deepLinking: true, persistAuthorization: true });\n`;

/** The HTML of /api/swagger-ui. */
export function swaggerPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>API documentation</title>
  <link rel="stylesheet" href="${SWAGGER_ASSETS.css}">
</head>
<body>
  <noscript>The interactive documentation needs JavaScript. The description itself is at <a href="${OPENAPI_PATH}">${OPENAPI_PATH}</a>.
  API keys go in the ${API_KEY_HEADER} header as username:key, with X-ORG naming the organisation.</noscript>
  <div id="swagger-ui"></div>
  <script src="${SWAGGER_ASSETS.js}"></script>
  <script src="${SWAGGER_INIT_PATH}"></script>
</body>
</html>`;
}
