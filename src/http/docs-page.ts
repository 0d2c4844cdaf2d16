/**
 * @module
 * The API reference page (`GET /docs`): Scalar's API reference (`@scalar/api-reference`, its standalone
 * browser bundle) rendering `/openapi.json`, with the descriptions' Markdown, the request examples and a
 * "try it" client that sends requests to this deployment.
 *
 * Nothing comes from a CDN: the bundle is a Workers static asset (wrangler.toml `[assets]`: the assets' build,
 * src/web/build.ts, copies the package's standalone build, pinned by package-lock.json, into
 * dist/web/vendor/) that the Worker serves at
 * {@link SCALAR_BUNDLE_PATH}; the page's settings are a script served by the Worker too, so the page's
 * Content-Security-Policy can forbid inline scripts and every other origin. Scalar's own online features
 * (hosted fonts, its request proxy, "open in client", the AI agent, telemetry) are switched off.
 */

/** Where the Worker serves the Scalar bundle. */
export const SCALAR_BUNDLE_PATH = '/docs/assets/scalar.js';
/** Where the Worker serves the page's Scalar settings. */
export const SCALAR_INIT_PATH = '/docs/assets/init.js';
/** The bundle's path inside the static assets (`[assets] directory`). */
export const SCALAR_ASSET = '/vendor/scalar.js';

/** The page's scripts by file name (`/docs/assets/{file}`). */
export const DOCS_ASSETS = ['scalar.js', 'init.js'] as const;

/**
 * Scalar's settings: the document to render and every online feature off. Keys Scalar does not know are
 * ignored by it, so the list stays valid across its minor versions.
 *
 * Tags are left as Scalar opens them by default: the first one (evaluations) in full, every other one as its
 * list of operations (method and path) that a click, the sidebar or the search opens. With every tag open
 * (`defaultOpenAllTags`, which Scalar's docs warn about for big documents) the browser went on to render the
 * whole 1.5 MB document, ~68,000 elements and ~1,560 Markdown blocks, 25-30 CPU-seconds more; closed, ~7,600
 * and ~150.
 */
const SCALAR_CONFIG = {
  url: '/openapi.json',
  // Names the document, so the settings below apply to it (without a slug Scalar falls back to defaults).
  slug: 'tribunal',
  title: 'Tribunal',
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: true,
  showDeveloperTools: 'never',
  agent: { disabled: true },
  persistAuth: false,
  metaData: { title: 'Tribunal API reference' },
};

/**
 * The script that mounts the reference (served at {@link SCALAR_INIT_PATH}). It drops one message of
 * Scalar's own: after loading a document, Scalar 1.46 checks it against its internal model and logs
 * "document validation errors" with what that model refuses. For this document that was 13 union schemas,
 * and the check is wrong about them: a trivial `oneOf` of a string and a number put in place of one of
 * them is refused too, the same union under a name nothing references is accepted, and the document passes
 * Redocly's recommended-strict rules (`npm run lint:openapi`). Every other message passes through.
 */
export const DOCS_INIT_JS = `// Tribunal API reference: Scalar settings (see src/http/docs-page.ts).
(() => {
  const warn = console.warn.bind(console);
  let listing = false;
  console.warn = (...args) => {
    if (args.length === 1 && args[0] === 'document validation errors: ') { listing = true; return; }
    if (listing && args.length === 1 && Array.isArray(args[0])) { listing = false; return; }
    listing = false;
    warn(...args);
  };
})();
Scalar.createApiReference('#tribunal-reference', ${JSON.stringify(SCALAR_CONFIG)});
`;

/**
 * The HTML of `GET /docs`: a mount point and the two same-origin scripts. The mount point is not called
 * `api-reference`: the bundle would mount a second, unconfigured reference on an element with that id.
 * Until Scalar (3.5 MB) has loaded and mounted over it, the mount point says it is loading (the page was
 * blank for seconds); the empty icon spares the browser a `/favicon.ico` request and its 404.
 */
export const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tribunal API reference</title>
<link rel="icon" href="data:,">
<style>
.docs-loading { font: 1rem/1.5 system-ui, sans-serif; color: #576070; max-width: 40rem; margin: 15vh auto; padding: 0 1rem; }
@media (prefers-color-scheme: dark) { body { background: #0f1116; } .docs-loading { color: #a3abb8; } }
</style>
</head>
<body>
<noscript>The API reference needs JavaScript. The machine-readable contract is at <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</noscript>
<div id="tribunal-reference"><p class="docs-loading" role="status">Loading the API reference… (the OpenAPI document itself: <a href="/openapi.json">/openapi.json</a>)</p></div>
<script src="${SCALAR_BUNDLE_PATH}"></script>
<script src="${SCALAR_INIT_PATH}"></script>
</body>
</html>
`;

/**
 * Content-Security-Policy of the page: scripts only from this origin (no inline script), requests only to
 * this origin (the "try it" client calls the API it documents), styles inline (Scalar injects its CSS),
 * images and fonts from this origin or `data:`.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
