/**
 * @module
 * The viewer's shell: hash routes (`#/evaluations/ev_…`), so one static `index.html` serves every page
 * without server-side fallbacks and the API's JSON 404s stay untouched; the key gate (a 401 anywhere
 * shows the key form, then the page again); error panels with a retry.
 *
 * Routes: `#/` evaluations, `#/batches`, `#/batches/{id}`, `#/meta/{id}` (meta-evaluation), `#/comparisons`,
 * `#/comparisons/{id}`,
 * `#/evaluations/{id}`, `#/new`, `#/presets`, `#/rubrics`, `#/rubrics/{id}` (its latest version),
 * `#/rubrics/{id}/versions/{n}`, `#/labelling` (annotation queues), `#/labelling/{id}` (labelling a queue),
 * `#/evals`, `#/evals/{id}`, `#/evals/{id}/runs/{runId}` (OpenAI Evals; a run's `report_url`), `#/traces` (open one
 * by id), `#/traces/{traceId}` (its spans as a tree, with their evaluations).
 */
import { ApiFailure, describeError, getJson } from './api.js';
import { tickRelativeTimes } from './components.js';
import { byId, h, replaceChildren } from './dom.js';
import { clearKey, getKey, keyRequired, setKey, setKeyRequired } from './key.js';
import { watchScrollingTables } from './scroll-hint.js';
import type { Health } from './types.js';
import type { View, ViewContext } from './view.js';
import { evaluationView } from './views/evaluation.js';
import { batchView } from './views/batches.js';
import { batchesView } from './views/batch-list.js';
import { comparisonsView } from './views/comparison-list.js';
import { evaluationsView } from './views/evaluation-list.js';
import { evalRunView } from './views/eval-run.js';
import { evalsView, evalView } from './views/evals.js';
import { labellingView } from './views/labelling.js';
import { labellingListView } from './views/labelling-list.js';
import { metaView } from './views/meta.js';
import { comparisonView } from './views/comparison.js';
import { presetsView } from './views/presets.js';
import { rubricsView } from './views/rubrics.js';
import { rubricVersionView } from './views/rubric-version.js';
import { submitView } from './views/submit.js';
import { traceView, tracesView } from './views/trace.js';

interface Route {
  pattern: RegExp;
  /** Which top navigation entry is current. */
  nav: string;
  view: View;
}

const ROUTES: Route[] = [
  { pattern: /^\/?$/, nav: 'evaluations', view: evaluationsView },
  { pattern: /^\/evaluations\/(?<id>[^/]+)$/, nav: 'evaluations', view: evaluationView },
  { pattern: /^\/new$/, nav: 'new', view: submitView },
  { pattern: /^\/presets$/, nav: 'presets', view: presetsView },
  { pattern: /^\/rubrics$/, nav: 'rubrics', view: rubricsView },
  {
    pattern: /^\/rubrics\/(?<id>[^/]+)(?:\/versions\/(?<version>[1-9][0-9]*))?$/,
    nav: 'rubrics',
    view: rubricVersionView,
  },
  { pattern: /^\/batches$/, nav: 'batches', view: batchesView },
  { pattern: /^\/batches\/(?<id>[^/]+)$/, nav: 'batches', view: batchView },
  { pattern: /^\/meta\/(?<id>[^/]+)$/, nav: 'batches', view: metaView },
  { pattern: /^\/comparisons$/, nav: 'comparisons', view: comparisonsView },
  { pattern: /^\/comparisons\/(?<id>[^/]+)$/, nav: 'comparisons', view: comparisonView },
  { pattern: /^\/evals$/, nav: 'evals', view: evalsView },
  { pattern: /^\/evals\/(?<id>[^/]+)$/, nav: 'evals', view: evalView },
  { pattern: /^\/evals\/(?<id>[^/]+)\/runs\/(?<run>[^/]+)$/, nav: 'evals', view: evalRunView },
  { pattern: /^\/labelling$/, nav: 'labelling', view: labellingListView },
  { pattern: /^\/labelling\/(?<id>[^/]+)$/, nav: 'labelling', view: labellingView },
  { pattern: /^\/traces$/, nav: 'traces', view: tracesView },
  { pattern: /^\/traces\/(?<id>[^/]+)$/, nav: 'traces', view: traceView },
];

let current: AbortController | null = null;

/** The hash as a path and a query: `#/?status=failed` → `/`, `status=failed`. */
function location(): { path: string; query: URLSearchParams } {
  const raw = window.location.hash.replace(/^#/, '') || '/';
  const [path = '/', query = ''] = raw.split('?', 2);
  return { path, query: new URLSearchParams(query) };
}

function announce(text: string): void {
  const el = byId('announcer', HTMLDivElement);
  el.textContent = '';
  // A fresh text node after a tick, so screen readers announce a repeated message too.
  window.setTimeout(() => {
    el.textContent = text;
  }, 50);
}

function updateKeyButton(): void {
  byId('key-button', HTMLButtonElement).hidden = getKey() === null;
}

function setNav(nav: string): void {
  for (const a of document.querySelectorAll<HTMLAnchorElement>('[data-nav]')) {
    if (a.dataset.nav === nav) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

/** The key form in place of the page; resolves once a key the API accepts was entered. */
function askForKey(root: HTMLElement, signal: AbortSignal, rejected: boolean): Promise<void> {
  return new Promise((resolve) => {
    const input = h('input', {
      id: 'api-key',
      name: 'api-key',
      type: 'password',
      autocomplete: 'off',
      spellcheck: 'false',
      required: true,
      'aria-describedby': 'api-key-hint api-key-error',
    });
    const error = h(
      'p',
      { id: 'api-key-error', class: 'field-error', role: 'alert' },
      rejected ? 'The stored key was not accepted. Enter a valid key.' : '',
    );
    const button = h('button', { type: 'submit', class: 'btn btn-primary' }, 'Continue');
    const form = h(
      'form',
      { class: 'stack', novalidate: true },
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'api-key' }, 'API key'),
        input,
        h(
          'p',
          { id: 'api-key-hint', class: 'hint' },
          'Kept in this browser tab only (sessionStorage) and sent only in the Authorization header, never in a URL. Closing the tab forgets it.',
        ),
      ),
      error,
      h('div', null, button),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (input.value.trim() === '') {
        error.textContent = 'Enter the API key of this deployment.';
        input.setAttribute('aria-invalid', 'true');
        input.focus();
        return;
      }
      setKey(input.value);
      button.disabled = true;
      getJson('/v1/methods', signal).then(
        () => {
          updateKeyButton();
          resolve();
        },
        (e: unknown) => {
          button.disabled = false;
          if (e instanceof ApiFailure && e.unauthorized) clearKey();
          error.textContent =
            e instanceof ApiFailure && e.unauthorized ? 'This key was not accepted.' : describeError(e);
          input.setAttribute('aria-invalid', 'true');
          input.select();
        },
      );
    });
    replaceChildren(
      root,
      h(
        'section',
        { class: 'panel narrow key-panel', 'aria-labelledby': 'key-title' },
        h('h1', { id: 'key-title' }, 'Sign in with an API key'),
        h(
          'p',
          { class: 'muted' },
          'This deployment requires an API key for its API. The viewer uses the same key as your API calls.',
        ),
        form,
      ),
    );
    input.focus();
  });
}

function errorPanel(root: HTMLElement, e: unknown, retry: () => void): void {
  const notFound = e instanceof ApiFailure && e.status === 404;
  replaceChildren(
    root,
    h(
      'section',
      { class: 'panel narrow', role: 'alert' },
      h('h1', null, notFound ? 'Not found' : 'Something went wrong'),
      h('p', null, describeError(e)),
      h(
        'div',
        { class: 'row' },
        notFound ? null : h('button', { type: 'button', class: 'btn', onclick: retry }, 'Try again'),
        h('a', { class: 'btn btn-ghost', href: '#/' }, 'All evaluations'),
      ),
    ),
  );
}

/**
 * Records whether `/v1` needs a key as `GET /health` says (public: no request refused, nothing in the browser's
 * console); unchanged when it cannot say (`closed`, an unreachable or older server), for the page's first request.
 */
async function learnAuth(signal: AbortSignal): Promise<void> {
  let auth: Health['auth'] | undefined;
  try {
    auth = (await getJson<Partial<Health>>('/health', signal)).auth;
  } catch (e) {
    if (signal.aborted) throw e;
    return;
  }
  if (auth === 'key') setKeyRequired(true);
  else if (auth === 'open') setKeyRequired(false);
}

/** Renders the page for the current hash (aborting the previous page's streams and timers). */
async function render(rejectedKey = false): Promise<void> {
  current?.abort();
  const controller = new AbortController();
  current = controller;
  const root = byId('main', HTMLElement);
  const { path, query } = location();
  const match = ROUTES.map((r) => ({ r, m: r.pattern.exec(path) })).find((x) => x.m !== null);
  if (!match?.m) {
    setNav('');
    errorPanel(root, new ApiFailure(404, 'not_found', `no page at #${path}`), () => undefined);
    return;
  }
  setNav(match.r.nav);
  const retry = () => {
    void render();
  };
  const handle = (e: unknown) => {
    if (controller.signal.aborted) return;
    if (e instanceof ApiFailure && e.unauthorized) {
      setKeyRequired(true);
      const hadKey = getKey() !== null;
      clearKey();
      updateKeyButton();
      void askForKey(root, controller.signal, hadKey || rejectedKey).then(() => {
        if (!controller.signal.aborted) void render();
      });
      return;
    }
    errorPanel(root, e, retry);
  };
  const ctx: ViewContext = {
    root,
    signal: controller.signal,
    params: match.m.groups ?? {},
    query,
    navigate: (hash) => {
      window.location.hash = hash;
    },
    announce,
    fail: handle,
  };
  replaceChildren(root, h('p', { class: 'loading', role: 'status' }, 'Loading…'));
  try {
    // Without a key, a deployment that requires one refuses every request a page sends (each logged by the
    // browser as a 401): the key form at once when this tab knows it does. A tab that does not know yet reads it
    // from `GET /health`; only when that cannot say (a server without its `auth`) does one request find out.
    if (getKey() === null && keyRequired() === null) await learnAuth(controller.signal);
    if (getKey() === null && keyRequired() !== false) {
      if (keyRequired() === null) await getJson('/v1/methods', controller.signal);
      else throw new ApiFailure(401, 'unauthorized', 'this deployment requires an API key');
      setKeyRequired(false);
    }
    await match.r.view(ctx);
  } catch (e) {
    handle(e);
  }
}

function start(): void {
  updateKeyButton();
  tickRelativeTimes();
  watchScrollingTables(byId('main', HTMLElement));
  // The skip link must not change the hash: the hash is the route.
  document.querySelector('.skip-link')?.addEventListener('click', (event) => {
    event.preventDefault();
    byId('main', HTMLElement).focus();
  });
  byId('key-button', HTMLButtonElement).addEventListener('click', () => {
    clearKey();
    updateKeyButton();
    announce('API key forgotten');
    void render();
  });
  window.addEventListener('hashchange', () => {
    window.scrollTo(0, 0);
    void render().then(() => {
      byId('main', HTMLElement).focus({ preventScroll: true });
    });
  });
  void render();
}

start();
