/**
 * GENERATED FILE, do not edit: `npm run client:types` writes it from the OpenAPI document
 * (src/print-openapi.ts) with openapi-typescript (src/cli/client-types.ts); tests/client/api-types.test.ts
 * fails when it is stale.
 */

export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Health
         * @description Checks D1 with a trivial query. No auth.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * API reference page
         * @description This reference as an HTML page (Scalar), with request examples and a client to try requests against this deployment. Served without any CDN.
         */
        get: operations["getApiReference"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/assets/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * API reference page scripts
         * @description The scripts `/docs` loads: `scalar.js` (Scalar's browser bundle, a static asset of this Worker) and `init.js` (its settings).
         */
        get: operations["getApiReferenceAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/evaluations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List evaluations
         * @description The tenant's evaluations, newest first, with the verdict's headline: filter by `status`, `preset`, `batch`, a `metadata` entry (`key:value`) and a creation range (`createdAfter` ≤ created < `createdBefore`); filters combine with AND. Page with `cursor` (the previous page's `nextCursor`, with the same filters): pages are keyset-paged, so evaluations created meanwhile never shift or repeat a page. Deleted evaluations are not listed, nor those moved to the archive (ended more than `ARCHIVE_AFTER_DAYS` ago, 7 by default): read those by id.
         */
        get: operations["listEvaluations"];
        put?: never;
        /**
         * Create an evaluation
         * @description Validates the task and the judge (`preset` + `config` overrides), stores the job and queues it; never waits for the LLM. Poll `GET /v1/evaluations/{id}` or follow `/events` for the verdict, or send `Prefer: wait=<seconds>` to get it in this response (200, the evaluation as `GET /v1/evaluations/{id}` shows it, header `Preference-Applied`) when it ends in time.
         *
         *     **Retries:** send an `Idempotency-Key`. A retry with the same key and body returns the same evaluation (202 again, header `Idempotent-Replayed: true`); the same key with another body is 409 `idempotency_conflict`. Without a key, a retry after a lost response creates a second evaluation.
         */
        post: operations["createEvaluation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/evaluations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an evaluation
         * @description Status, progress (live from the Durable Object while running), the verdict without its transcript, usage and cost, and the error if it failed.
         */
        get: operations["getEvaluation"];
        put?: never;
        post?: never;
        /**
         * Delete an evaluation
         * @description Data retention: erases the task, metadata, transcript and verdict, in D1 and in the evaluation's Durable Object. An evaluation that has not ended is cancelled first (calls already sent are still recorded and billed). The per-call usage rows billing needs are kept, and a batch still counts the item. Afterwards the evaluation reads as 404 everywhere (`GET`, transcript, events, cancel) and is not listed; its batch's results show it with `deleted: true`. Idempotent: deleting again answers 204.
         */
        delete: operations["deleteEvaluation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/evaluations/{id}/transcript": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the transcript
         * @description Every stored reply in recording order; `complete` is false until the evaluation ended.
         */
        get: operations["getEvaluationTranscript"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/evaluations/{id}/task": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the task
         * @description What is judged, as it was submitted (`GET /v1/evaluations/{id}` leaves it out: a poll should not carry the texts). `task` is null once it is no longer kept.
         */
        get: operations["getEvaluationTask"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/evaluations/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel an evaluation
         * @description No new LLM calls are made; calls already sent are still recorded and billed, and a call still waiting for its provider slot is not sent. The body is optional.
         */
        post: operations["cancelEvaluation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/evaluations/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Live events (SSE or WebSocket)
         * @description Server-sent events by default (`text/event-stream`); send `Upgrade: websocket` for a WebSocket with one JSON `{type, data}` frame per event. Everything so far is replayed first. Events: `status`, `call.started`, `call.finished`, `vote`, `verdict`; the stream closes after a terminal `status`.
         */
        get: operations["streamEvaluationEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/methods": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List methods and presets
         * @description Each method with the paper it implements and the task kinds it accepts; each preset with its config resolved against the method defaults, its task kind and the paper section it reproduces. A preset id goes in `preset`; its config is the base that `config` overrides.
         */
        get: operations["listMethods"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/meta-evaluations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Judge a labelled batch
         * @description Measures how well a judge agrees with human labels: 1-500 labelled items of one task kind with unique ids, one evaluation per item, all with the same judge (a labelled batch: it is also listed by `GET /v1/batches`). Errors about an item name it (`items.3.task`).
         *
         *     **Retries:** send an `Idempotency-Key`: the same key and body return the same meta-evaluation (202, `Idempotent-Replayed: true`), another body is 409 `idempotency_conflict`.
         */
        post: operations["createMetaEvaluation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/meta-evaluations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a meta-evaluation
         * @description Progress, and once every item ended the agreement report: accuracy and Cohen's κ for pairwise items; Pearson, Spearman and Kendall correlations for pointwise ones.
         */
        get: operations["getMetaEvaluation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/meta-evaluations/{id}/calibrate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Calibrate a cascade (Trust or Escalate)
         * @description From this labelled run of a `cascade` config (best with `runAllStages: true`), each stage's confidence threshold for a target agreement 1 − `alpha` with risk `delta`, by fixed-sequence testing as in Jung et al. 2024: the thresholds, the coverage and the agreement on the covered items with the guarantee stated, and the cascade config that applies them (items below every threshold then come back without a winner, `details.cascade.abstained`). Stored: `GET /v1/meta-evaluations/{id}` shows the latest.
         */
        post: operations["calibrateMetaEvaluation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/annotation-queues": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List annotation queues
         * @description The tenant's queues with their progress, newest first; page with `cursor`.
         */
        get: operations["listAnnotationQueues"];
        put?: never;
        /**
         * Create an annotation queue
         * @description Items to label by one rubric version: `items: [{id, task}]` sent, or `fromEvaluations: {filter}` (your succeeded evaluations of the rubric's kind, newest first; each keeps its evaluation id as item id and brings the judge's verdict as a `judge` label when it was judged by that rubric version, or by no rubric on an aspect whose description is the rubric's criteria word for word). `rubric` (`rb_…`, `rb_…@n`, `rb_…#tag`) is fixed to its version now. Each item waits for `labelsPerItem` labels from different annotators; when they disagree (pairwise: no strict majority; pointwise: no majority score and a spread over one point) it needs an adjudicator. `blind` hides the judge's verdict from annotators. Send an `Idempotency-Key` to make a retry safe.
         */
        post: operations["createAnnotationQueue"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/annotation-queues/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an annotation queue
         * @description The queue with its items per status (`pending`, `labelled`, `needsAdjudication`, `adjudicated`).
         */
        get: operations["getAnnotationQueue"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/annotation-queues/{id}/next": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's next item to label
         * @description The first item, in queue order, that this annotator has not labelled and that still waits for labels, with what a label must look like (the rubric's kind, scale and aspects) and the judge's verdict (null in a blind queue). 204 when none is left for this annotator. Annotators are told apart by key, or by `x-annotator` under one key.
         */
        get: operations["nextAnnotationItem"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/annotation-queues/{id}/items/{itemId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One item with its labels
         * @description Every label of the item (annotators, the judge, an adjudicator), where it stands, and its label once it has one.
         */
        get: operations["getAnnotationItem"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/annotation-queues/{id}/items/{itemId}/labels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Label an item
         * @description The annotator's label (`winner` pairwise; `score` and/or `aspects` pointwise, on the rubric's scales), provenance `human`. A second label by the same annotator replaces the first. `adjudicate: true` gives the adjudicator’s label, which settles the item whatever the annotators said (the way out of `needs_adjudication`). Answers the item with its labels and where it stands.
         */
        post: operations["labelAnnotationItem"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/annotation-queues/{id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export the labels
         * @description `format=jsonl` (default): one item per line with its task, labels, status and label. `format=csv`: a header row (`queue_id,item_id,item_status,annotator,role,provenance,winner,score,aspects,comment,updated_at`), then one label per row; `aspects` is a JSON object. The CSV imports back as it is.
         */
        get: operations["exportAnnotationQueue"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/annotation-queues/{id}/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import labels from a file
         * @description JSONL (`application/x-ndjson`): one `{itemId, label, annotator?, role?, comment?}` per line; or CSV (`text/csv`) with a header row (`item_id`, `annotator`, `role`, `winner`, `score`, `aspects` as JSON, `comment`; the export’s other columns are accepted and not read). Every label gets provenance `imported`; a line without `annotator` is the caller’s (`x-annotator`, else the key). All or nothing: errors name `labels.N.…`, where N counts JSONL lines, or CSV rows after the header, from 0.
         */
        post: operations["importAnnotationLabels"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/rubrics/{id}/versions/{version}/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a version against its golden examples
         * @description Runs the version's golden examples (or the `examples` sent) with the judge given (`preset` and/or `config`, as on POST /v1/evaluations) as a meta-evaluation judged by `rb_…@{version}`. Once every example ended, the agreement (accuracy and Cohen's κ pairwise; Pearson, Spearman and Kendall pointwise, with CIs) is stored on the version (`check` in `GET …/versions/{version}`), where a tag's `minAgreement` reads it. A new check replaces the earlier one. Send an `Idempotency-Key` to make a retry safe.
         */
        post: operations["checkRubricVersion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/rubrics/{id}/versions/{version}/agreement": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A version's agreement with your labels
         * @description Judges the labelled items of the version's annotation queues with the version (`rb_…@{version}`, the golden check's judge), once: a second read with no new label finds the same run, and items judged before come from the verdict cache. While it runs: 202, `status: running`, read `links.self` again. Then 200: pairwise Cohen's `kappa` and `accuracy` with intervals and the confusion matrix, pointwise Pearson `r`, Spearman `rho` and Kendall `tau` with intervals, `n`, and each disagreement linked to its evaluation and item.
         */
        get: operations["getRubricAgreement"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/rubrics/{id}/align": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Align a rubric to your labels
         * @description Learns a new version of the rubric from the labels of an annotation queue over it (the queue's version is the base), as a job: 202 with `links.self`. The labelled items are split once: `holdout` of them are held out (judged by both versions, learned from by neither). `few-shot` puts the judge's most confident mistakes in the criteria as examples, `instructions` has the LLM write rules into the criteria from the disagreements, `auto` tries both and keeps the best on a validation split of the learning items. A pointwise rubric aligns by `thresholds` (or `auto`, which picks it): cut-offs on the judge's score and each aspect's, learned from the learning items, stored as the new version's `thresholds`; its verdicts carry the bands as `label`. The job ends `succeeded` with the new `version` and `heldOut: {base, aligned, gain}` (Cohen's κ with bootstrap 95% intervals), or `failed` with `error`. The `tag` (default `prod`) moves to the new version only when the gain's interval lies above 0; the job says whether it moved. Every call is judged through the pipeline and billed to the tenant, once: a repeated step finds what it made.
         */
        post: operations["alignRubric"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/rubrics/{id}/alignments/{alignmentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An alignment job
         * @description Where the job is (`status`, `step`), then its new `version`, `heldOut` agreement and what its tag did, or its `error`.
         */
        get: operations["getAlignment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/rubrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List rubrics
         * @description The tenant's rubrics, newest first, with their tags; page with `cursor` (the previous page's `nextCursor`).
         */
        get: operations["listRubrics"];
        put?: never;
        /**
         * Create a rubric
         * @description Your own criteria as a resource: `{name, kind, criteria, scale?, aspects?, evaluationSteps?, examples?}` becomes version 1 of a new rubric `rb_…`. `criteria` replaces each preset template's criteria slot and nothing else (docs/fidelity.md, "Your own criteria"); `aspects` (pointwise, up to 16) are scored one by one with a weighted overall; `examples` are golden items `{task, expected, expectedAspects?, note?}` that `POST …/versions/{n}/check` runs.
         *
         *     Name it in any judging request as `rubric: "rb_…"` (latest), `"rb_…@1"` or `"rb_…#prod"`. Send an `Idempotency-Key` to make a retry safe.
         */
        post: operations["createRubric"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/rubrics/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a rubric
         * @description Its name, kind, latest version, tags (with their minimum agreement) and whether it is archived.
         */
        get: operations["getRubric"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/rubrics/{id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List versions
         * @description The rubric's versions, newest first, each with its tags, steps and check (examples counted, not listed).
         */
        get: operations["listRubricVersions"];
        put?: never;
        /**
         * Add a version
         * @description A whole new rubric body becomes the next version (latest + 1); versions never change afterwards. `kind` may be left out (it cannot change); `name` renames the rubric. `rb_…` alone names the new version from now on; tags stay where they point until moved. An archived rubric takes no new version (409).
         */
        post: operations["createRubricVersion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/rubrics/{id}/versions/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a version
         * @description The version as created (criteria, scale, aspects, steps, examples, its hash), its tags, the evaluation steps G-Eval's auto-CoT wrote for it (`steps`) and its golden check (`check`, with the agreement once every example ended). Versions are immutable: PUT, PATCH and DELETE are 405. Archived rubrics' versions stay readable.
         */
        get: operations["getRubricVersion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/rubrics/{id}/tags/{tag}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Point a tag at a version
         * @description Creates the tag or moves it; `rb_…#<tag>` names that version from the next request on (a trigger naming it follows at its next delivery). `minAgreement` sets the tag's policy (absent: kept; null: none): the tag moves only to a version whose golden check has that figure at least that high, else 409 naming the figure.
         */
        put: operations["putRubricTag"];
        post?: never;
        /**
         * Remove a tag
         * @description `rb_…#<tag>` is a 404 from then on (a trigger naming it fails its next delivery). Idempotent.
         */
        delete: operations["deleteRubricTag"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/rubrics/{id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Archive a rubric
         * @description Every version stays readable (and every evaluation that used one keeps its record). From now on `rb_…` and `rb_…#tag` are refused with 409 `rubric_archived`; `rb_…@n` still judges (a pinned version keeps working). No new version or tag move. Idempotent.
         */
        post: operations["archiveRubric"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Usage and cost
         * @description LLM calls, prompt / cached prompt / completion tokens, cost (USD) and what the providers' prompt caches saved (USD) of this tenant in `[from, to)`, grouped by UTC `day`, `model`, `preset` or `key` (the API key that created the evaluation), summed from the per-call usage rows (written when an evaluation ends); and `verdictCache`: evaluations created in the range that the verdict cache served (no call, $0) and the USD those verdicts had cost. CSV (the rows only) with `format=csv` or `Accept: text/csv`.
         */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/tenants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List tenants
         * @description Tenants ordered by id, a page at a time (`limit`, then `after` = the previous page's `next`).
         */
        get: operations["adminListTenants"];
        put?: never;
        /**
         * Create a tenant
         * @description A customer (or team) whose keys, evaluations and usage are kept apart from every other; limits left out are the deployment defaults.
         */
        post: operations["adminCreateTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/tenants/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a tenant
         * @description The tenant, its limits, and `current`: evaluations and spend this month, evaluations running now, when the quotas reset.
         */
        get: operations["adminGetTenant"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a tenant
         * @description Renames the tenant or changes its limits and quotas: fields given replace, a limit set to `null` goes back to the deployment default (quotas: no cap). Rates and caps apply from the next request or start; evaluations already running are not stopped.
         */
        patch: operations["adminUpdateTenant"];
        trace?: never;
    };
    "/v1/admin/tenants/{id}/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A tenant's usage
         * @description The usage report of any tenant (also one with no `tenants` row that has made an evaluation or a billed call, e.g. an API_KEYS tenant): the same query and answer as `GET /v1/usage`. 404 for an id the deployment has never seen.
         */
        get: operations["adminGetTenantUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API keys
         * @description Keys (of one tenant with `tenantId`) ordered by id, a page at a time; revoked and expired keys included, with their status.
         */
        get: operations["adminListKeys"];
        put?: never;
        /**
         * Create an API key
         * @description A new `trb_…` key for a tenant, shown in this answer only (Tribunal keeps its sha-256). Default scopes `evaluations:write` and `read`. Give each client its own key, so one can be revoked without the others.
         */
        post: operations["adminCreateKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an API key
         * @description The key's record: tenant, scopes, label, status and times (never the key itself).
         */
        get: operations["adminGetKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/shards/carry-over": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Carry a one-database state over into the D1 shards
         * @description After `D1_SHARDS` is raised from 0 on a deployment with data: moves each tenant's rows from the control database `DB` into its shard, at most `maxRows` records (with their transcripts, attempts, …) a call, until `done`. Idempotent and resumable: a repeat, or a call cut short, moves nothing twice and loses nothing (docs/scale.md). `npm run admin -- shards:carry-over` calls it until done.
         */
        post: operations["adminCarryOverShards"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/keys/{id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke an API key
         * @description The key is refused from its next request on (keys are checked against D1 on every request; nothing caches them). Revoking again changes nothing.
         */
        post: operations["adminRevokeKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/batches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List batches
         * @description The tenant's batches (meta-evaluations included, `kind: meta_evaluation`), newest first, with their counts; page with `cursor`.
         */
        get: operations["listBatches"];
        put?: never;
        /**
         * Submit a batch
         * @description Judges 1-10000 items with one judge (`preset` + `config`), one evaluation per item. Every item is validated before anything is stored: a bad item is a 400 naming it (`items.3.task.answerA`) and nothing is created. Answers 202 once every item is stored and queued; follow `GET /v1/batches/{id}` for counts and `GET /v1/batches/{id}/results` for the verdicts. `webhook.url` also receives the signed `batch.completed` event.
         *
         *     **Body:** JSON (`application/json`), or NDJSON (`application/x-ndjson`): line 1 is the request without `items` (`{"preset": …}`), then one item per line (line n is `items[n-2]`). The body limit is `MAX_BATCH_BODY_BYTES` (16 MiB by default).
         *
         *     **Retries:** send an `Idempotency-Key`: the same key and body return the same batch (202, `Idempotent-Replayed: true`), another body is 409 `idempotency_conflict`.
         */
        post: operations["createBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/batches/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a batch
         * @description Status and counts by item status (kept on the batch, each item counted once when it ends), verdict statistics (win rates, mean score) over the stored verdicts, and the LLM calls, tokens and cost billed for every item.
         */
        get: operations["getBatch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/batches/{id}/results": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Batch results (NDJSON)
         * @description One JSON line per item in request order: its id, evaluation id, status, verdict summary and error. Items not ended yet appear with their current status. Paged: the `X-Next-Cursor` header (and `Link: <…>; rel="next"`) gives the next page; absent on the last one.
         */
        get: operations["getBatchResults"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/batches/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a batch
         * @description Items that have not started never start; running items make no new LLM calls (calls already sent are still recorded and billed). The batch is `cancelling` until its last item ends, then `cancelled`. Repeating the request is harmless. No body.
         */
        post: operations["cancelBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/comparisons": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List comparisons
         * @description The tenant's comparisons, newest first, with their counts and the gate's final outcome; page with `cursor`.
         */
        get: operations["listComparisons"];
        put?: never;
        /**
         * Compare candidates
         * @description Judges 2-8 candidates' outputs on 1-10000 items, pair by pair (`design`: every pair, or each against a baseline), as a batch of kind `comparison` (its window, budget, cancel and counts are a batch's). Each pair is judged in both presentation orders: inside one evaluation when the judge calibrates position itself (most pairwise presets: `evaluationsPerPair` 1), else as two evaluations (AB and BA, combined by agree-or-tie). Every item is validated before anything is stored: a missing output is a 400 naming `items.3.outputs.v2`. Follow `GET /v1/comparisons/{id}`; `webhook.url` and subscribed endpoints receive `comparison.completed` once, with the gate's outcome, or send `Prefer: wait=<seconds>` to get the ended comparison, gate included, in this response (200, as `GET /v1/comparisons/{id}` shows it, header `Preference-Applied`) when it ends in time: a CI runner that cannot receive a webhook waits here (again, with the same `Idempotency-Key`, for a longer run).
         *
         *     **Body:** JSON, or NDJSON (`application/x-ndjson`): line 1 is the request without `items`, then one item per line. **Retries:** an `Idempotency-Key` returns the same comparison for the same body.
         */
        post: operations["createComparison"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/comparisons/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a comparison
         * @description Counts, then the statistics (`basis`: `final` once every evaluation ended, stored; `live` while it runs): `pairs` (wins, ties, losses, `winRate` with its interval), the win `matrix`, the `ranking` by Bradley–Terry strength with bootstrap intervals, the `judge`'s flip and tie rates, the `gate` and a one-line `summary`; and the calls, tokens and cost of every evaluation.
         */
        get: operations["getComparison"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/comparisons/{id}/results": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Comparison results (NDJSON)
         * @description One JSON line per item in request order: each pair with its winner (a candidate, `tie` or null), its flip and its evaluations, and how the item went for the gate. The last page ends with a `summary` line (the gate and ranking as of now). Paged by `X-Next-Cursor` / `Link`.
         */
        get: operations["getComparisonResults"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/comparisons/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a comparison
         * @description As a batch's cancel: evaluations not started never start; the comparison is `cancelling` until the last one ends, then `cancelled`, and `comparison.completed` carries the statistics of what was judged. Repeating it is harmless. No body.
         */
        post: operations["cancelComparison"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/estimates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Estimate calls, tokens and cost
         * @description Takes the body of `POST /v1/evaluations` (`task`), of a batch (`items`) or of a comparison (`candidates`: its evaluations are items × pairs × evaluations per pair, each pair in both presentation orders), validated the same way, and answers what it would spend: LLM calls (min / max differ for adaptive protocols such as DEBATE or SAMRE with early stop), prompt and completion tokens and USD cost (min / expected / max), in total and per model, and whether a `budget` fits. Makes no LLM call and stores nothing. The protocol is run against a synthetic LLM along its shortest and longest paths, prompts counted with the cl100k_base tokenizer; `assumptions` says how each figure was made. Batches over 100 items are estimated from an even sample of 100, scaled. With `include: ["prompts"]` it also answers `prompts`: the requests one evaluation sends before any reply (a debate's first round), rendered exactly as the provider receives them.
         */
        post: operations["createEstimate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/chat/completions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Judge as a model (OpenAI chat completion)
         * @description OpenAI-compatible: `model` is a judge, `tribunal/<preset>` or `tribunal/<preset>@<model>` (the preset with its default model replaced); the one user message is the task, a JSON Task or plain text with markers (`[QUESTION]` `[ANSWER A]` `[ANSWER B]`, or `[SOURCE]` `[OUTPUT]` `[ASPECT]`). Creates an ordinary evaluation (auth, limits, billing and `Idempotency-Key` as `POST /v1/evaluations`) and waits for its verdict up to `OPENAI_WAIT_SECONDS` (default 120): the assistant message is the verdict as JSON (JudgeVerdict), `usage` the whole debate's tokens. With `stream: true` the debate's replies arrive as `chat.completion.chunk` events as they are stored, then the verdict, then `data: [DONE]`. Past the bound: 504 `verdict_timeout` with the evaluation id to poll. `temperature`, `top_p`, the penalties and the token limits are accepted and have no effect (the preset fixes them); `n` > 1, `tools`, `logprobs`, `stop`, `seed` and other parameters that would change the meaning are refused. Full conventions: docs/integrations.md.
         */
        post: operations["createChatCompletion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List judges as models
         * @description Every preset as an OpenAI model object, `tribunal/<preset>` (its method, task kind and paper in `tribunal`). Any of them also takes `@<model>` to replace the preset's default model, e.g. `tribunal/chateval-faireval@gpt-4o-mini`; those are not listed.
         */
        get: operations["listModels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/models/{model}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a judge as a model
         * @description One judge by model name (URL-encoded: `tribunal%2Fchateval-faireval`), with or without `@<model>`.
         */
        get: operations["retrieveModel"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/evals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List evals
         * @description The tenant's evals, oldest first by default; page with `after` (the previous page's `last_id`).
         */
        get: operations["listEvals"];
        put?: never;
        /**
         * Create an eval
         * @description OpenAI's `evals.create`: a `custom` data source config (`item_schema`, `include_sample_schema`) and its testing criteria (`string_check`, `text_similarity`, `label_model`, `score_model`, `multi`). Every grader is checked first: a template naming a field the item schema lacks, or a threshold outside its range, is a 400 naming the field; `python` is 400 `unsupported_grader`; `logs` and `stored_completions` are 400 saying what to send instead.
         *
         *     **Retries:** send an `Idempotency-Key` (the `openai` SDK retries a POST by itself and sends none of its own): the same key and body answer the eval made first (header `Idempotent-Replayed: true`); the same key with another body is 409 `idempotency_conflict`, and 404 once the eval it made is deleted.
         */
        post: operations["createEval"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/evals/{eval_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an eval
         * @description The eval with its data source config and testing criteria, as it was created or last updated.
         */
        get: operations["getEval"];
        put?: never;
        /**
         * Update an eval
         * @description Sets `name` and/or `metadata` (null clears it); the config and criteria never change.
         */
        post: operations["updateEval"];
        /**
         * Delete an eval
         * @description The eval is no longer found or listed, and neither are its runs and their output items: in the same transaction each run is deleted as `DELETE …/runs/{run_id}` deletes it (its output items and stored model replies erased; a run still going is cancelled, its items not graded yet are not graded, and it sends `eval.run.canceled`, whose links then answer 404). Usage rows stay for billing. Deleting again is 404.
         */
        delete: operations["deleteEval"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/evals/{eval_id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List runs
         * @description The eval's runs, oldest first by default; `status` filters them, and `after` pages on from a run id.
         */
        get: operations["listEvalRuns"];
        put?: never;
        /**
         * Create a run
         * @description OpenAI's `evals.runs.create`: grades each item of the data source with the eval's testing criteria. `jsonl` takes the items (and their samples, when the eval reads `{{sample.*}}`) inline (`file_content`); `completions` samples `model` on each item from `input_messages` through the deployment's LLM first (`responses`: through its Responses API). `service_tier` and `cache` are Tribunal's: the tier of the run's model calls and the verdict cache of its model graders. Answers at once (`queued`); poll the run, then read its output items. Each item counts as one evaluation against the tenant's monthly caps, and each model call is billed in `GET /v1/usage` once.
         *
         *     **Retries:** send an `Idempotency-Key` (the `openai` SDK retries a POST by itself and sends none of its own; without a key a retry after a lost answer runs, and bills, the items twice): the same key and body answer the run made first (as it is now, header `Idempotent-Replayed: true`); the same key with another body or another eval is 409 `idempotency_conflict`, and 404 once the run it made is deleted.
         */
        post: operations["createEvalRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/evals/{eval_id}/runs/{run_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a run
         * @description Its status, `result_counts`, `per_testing_criteria_results` and `per_model_usage` so far.
         */
        get: operations["getEvalRun"];
        put?: never;
        /**
         * Cancel a run
         * @description Items not graded yet are not graded; repeating it, or cancelling an ended run, changes nothing. No body.
         */
        post: operations["cancelEvalRun"];
        /**
         * Delete a run
         * @description The run and its output items are no longer found or listed under the eval. A run not ended yet is cancelled: its items not graded yet are not graded, and it sends `eval.run.canceled` as a cancel does (once: deleting again is 404; the event's links name the deleted run, so they answer 404).
         */
        delete: operations["deleteEvalRun"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/evals/{eval_id}/runs/{run_id}/output_items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a run's output items
         * @description The graded items so far, by their index in the data source; `status` filters `pass` or `fail`.
         */
        get: operations["listEvalRunOutputItems"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/evals/{eval_id}/runs/{run_id}/output_items/{output_item_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an output item
         * @description One graded item: its `datasource_item`, `sample` and each grader's `results`.
         */
        get: operations["getEvalRunOutputItem"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/fine_tuning/alpha/graders/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run a grader
         * @description OpenAI's `fineTuning.alpha.graders.run`: one grader on `model_sample` (`{{sample.output_text}}`) and `item` (`{{item.*}}`). A model grader asks the deployment's LLM, or runs a Tribunal judge named as its model (`tribunal/<preset>`) as an evaluation. Grader errors are reported in `metadata.errors` with reward 0.
         *
         *     **Retries:** send an `Idempotency-Key` (the `openai` SDK retries a POST by itself and sends none of its own; without a key each retry grades, and bills its model calls, again): the same key and body answer the first run's response without grading again (header `Idempotent-Replayed: true`), for 24 hours; the same key with another body is 409 `idempotency_conflict`; while its first request still runs, 409 `idempotency_conflict` marked for a retry (`x-should-retry: true`, `retry-after-ms: 2000`), so the SDK waits and gets the first answer. A request that fails (such as 503) leaves its key free for a retry.
         */
        post: operations["runGrader"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/fine_tuning/alpha/graders/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Validate a grader
         * @description Checks a grader as `/run` and an eval do; answers it back when it is valid.
         */
        post: operations["validateGrader"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List files
         * @description The tenant's files, newest first by default; page with `after` (the previous page's `last_id`).
         */
        get: operations["listFiles"];
        put?: never;
        /**
         * Upload a file
         * @description OpenAI's `files.create` for eval data: `purpose` `evals`, a JSONL file whose lines are JSON objects (an eval run's items: `{"item": {…}, "sample": {…}}`), at most 20 MiB and 50,000 lines. Stored per tenant until deleted.
         *
         *     **Retries:** send an `Idempotency-Key` (the `openai` SDK retries a POST by itself and sends none of its own): the same key with the same file name, purpose and content answers the file stored first (header `Idempotent-Replayed: true`); the same key with another upload is 409 `idempotency_conflict`, and 404 once the file it made is deleted.
         */
        post: operations["createFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/files/{file_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a file
         * @description The file's name, size, purpose and creation time.
         */
        get: operations["getFile"];
        put?: never;
        post?: never;
        /**
         * Delete a file
         * @description The file is no longer found or listed, and its content is removed. Runs that read it already keep their items.
         */
        delete: operations["deleteFile"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/files/{file_id}/content": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a file's content
         * @description The bytes as uploaded (JSONL).
         */
        get: operations["getFileContent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints
         * @description Every endpoint of the tenant, oldest first, without secrets.
         */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Register a webhook endpoint
         * @description Tribunal POSTs the tenant's events to `url`, signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`). The answer carries the endpoint's secret, **shown only here**. Deliveries are retried with backoff for about a day; a 410 answer disables the endpoint. At most 20 endpoints per tenant.
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a webhook endpoint
         * @description The endpoint without its secret; `enabled` is false after a 410 answer or a disable, with the reason.
         */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint
         * @description Deletes the endpoint and its delivery log; its pending deliveries are dropped.
         */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /**
         * Update a webhook endpoint
         * @description Changes the fields sent: `url` (checked by the URL guard; pending deliveries go to the new URL), `events` (null = every type), `description`, `enabled` (`false` fails its pending deliveries; `true` re-enables, then retry failed deliveries by hand).
         */
        patch: operations["updateWebhookEndpoint"];
        trace?: never;
    };
    "/v1/webhook-endpoints/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate an endpoint's secret
         * @description A new secret, **shown only here**. For 24 hours deliveries carry two signatures (new and previous secret, space-separated in `webhook-signature`), so the receiver can switch without losing events.
         */
        post: operations["rotateWebhookEndpointSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An endpoint's delivery log
         * @description Deliveries to this endpoint, newest first, each with its attempts (status code or error, duration, the answer's first bytes), status and next try.
         */
        get: operations["listWebhookEndpointDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{id}/deliveries/{deliveryId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry a delivery
         * @description Sends the delivery again now, whatever its status, with a fresh retry window. Same event, same `webhook-id`: receivers deduplicate.
         */
        post: operations["retryWebhookEndpointDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The delivery log
         * @description Every delivery of the tenant's events, newest first: to endpoints and to one-off `webhook.url`s (`endpoint=one-off`). Filter by `subject` (an evaluation, batch or meta-evaluation id) to see what was sent about it.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-deliveries/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry any delivery
         * @description As `POST /v1/webhook-endpoints/{id}/deliveries/{deliveryId}/retry`, also for one-off URLs.
         */
        post: operations["retryWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-signing-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Signing secret status
         * @description Whether the tenant has a signing secret for one-off `webhook.url` callbacks, and since when. The secret itself is never shown again.
         */
        get: operations["getWebhookSigningSecret"];
        put?: never;
        /**
         * Create the signing secret
         * @description Creates the tenant's signing secret (needed before any request carries `webhook: {url}`). The secret is **shown only in this answer**. A tenant that has one gets 409 `conflict`: replacing it is `POST /v1/webhook-signing-secret/rotate`.
         */
        post: operations["createWebhookSigningSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-signing-secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the signing secret
         * @description Replaces the tenant's signing secret. The new secret is **shown only in this answer**; the previous one still signs (a second `v1,` signature) for 24 hours, so receivers can switch over.
         */
        post: operations["rotateWebhookSigningSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/triggers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List triggers
         * @description Every trigger of the tenant, oldest first, without secrets.
         */
        get: operations["listTriggers"];
        put?: never;
        /**
         * Create a trigger
         * @description A URL (`/v1/hooks/{id}`) that turns each signed incoming JSON event into one evaluation: `mapping` says where each task field is (JSON Pointer, template or constant), `filter` which events to judge. The answer carries the secret the sender signs with, **shown only here**. At most 100 triggers per tenant.
         */
        post: operations["createTrigger"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/triggers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a trigger
         * @description The trigger without its secret.
         */
        get: operations["getTrigger"];
        put?: never;
        post?: never;
        /**
         * Delete a trigger
         * @description Its URL answers 404 from now on; evaluations it created stay.
         */
        delete: operations["deleteTrigger"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/triggers/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a trigger's secret
         * @description A new secret, **shown only here**. Requests signed with the previous one are still accepted for 24 hours, so the sender can switch over.
         */
        post: operations["rotateTriggerSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/hooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send an event to a trigger
         * @description For senders: any JSON body, signed with the trigger's secret — Standard Webhooks (`webhook-id`, `webhook-timestamp` within 5 minutes of now, `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`) (Svix senders work unchanged: the same scheme under `svix-id`, `svix-timestamp`, `svix-signature`), or GitHub's `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>` with `X-GitHub-Delivery`. No bearer token. The delivery id (`webhook-id` / `svix-id` / `X-GitHub-Delivery`) makes it idempotent: a retry answers 202 with the same evaluation and judges nothing twice.
         */
        post: operations["receiveHook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/traces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Export spans (OTLP/HTTP)
         * @description OTLP/HTTP trace export as the OTLP specification defines it: a binary (`application/x-protobuf`) or JSON (`application/json`) `ExportTraceServiceRequest`, optionally `Content-Encoding: gzip`; the answer is in the same encoding. Point an OpenTelemetry exporter at the deployment (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=https://…/v1/traces`, header `Authorization=Bearer trb_…`). Spans are read with OpenTelemetry's GenAI semantic conventions and OpenInference's attributes, queued, and kept in their trace (one store per trace) for the tenant's retention; each (traceId, spanId) is kept once, so a re-export adds nothing. A tenant that stores no content (`storeContent: false`) keeps each span's texts only until its trace's monitors have judged them (`TRACE_QUIET_MS` after the trace's last span once its root span has ended; at most 15 minutes while it has not), then their sha-256. A span with a bad id is rejected alone (200 with `partialSuccess`). Limits: `OTLP_MAX_BODY_BYTES` (before and after gzip) and `OTLP_MAX_SPANS` per request, 413 past either.
         */
        post: operations["exportTraces"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/traces/{traceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a trace
         * @description The spans received so far, in tree order (depth first from each root, siblings by start time), each normalized (`genAi`: model calls, tool calls, agents), and the evaluations made of them. Spans are stored a moment after the export answers.
         */
        get: operations["getTrace"];
        put?: never;
        post?: never;
        /**
         * Delete a trace
         * @description Data retention: erases the trace's spans and their texts, its index, and the evaluations made of it (a monitor's, or any whose `source` names the trace, yours too: each as `DELETE /v1/evaluations/{id}` erases it). Afterwards the trace reads as 404, and a span of it arriving later (a re-export, a span still queued) is dropped until the retention's deadline the trace had (none with `retentionDays` 0). Idempotent: deleting again answers 204.
         */
        delete: operations["deleteTrace"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/monitors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List monitors
         * @description The tenant's monitors, newest first, with their counts, a page at a time: `limit` (1-100, default 100: every monitor) and `cursor` (the previous page's `nextCursor`; null on the last page).
         */
        get: operations["listMonitors"];
        put?: never;
        /**
         * Create a monitor
         * @description Judges the spans (`scope: span`) or whole traces (`scope: trace`) of `POST /v1/traces` that match `filter`, a deterministic `sampleRate` of them, each once, as an ordinary evaluation with `source: {traceId, spanId, monitorId}` (webhooks, usage, budgets, tiers and the viewer apply). Spans that arrived before the monitor are not judged. At most 100 monitors per tenant.
         */
        post: operations["createMonitor"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/monitors/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a monitor
         * @description The monitor and its `counts` since it was created: matched, sampled, its evaluations that succeeded or failed, and the sampled matches the daily budget skipped.
         */
        get: operations["getMonitor"];
        put?: never;
        post?: never;
        /**
         * Delete a monitor
         * @description Nothing more is matched; the evaluations it made stay.
         */
        delete: operations["deleteMonitor"];
        options?: never;
        head?: never;
        /**
         * Update, pause or resume a monitor
         * @description Changes the given fields (`null` clears `tier`, `dailyBudgetUsd` or `webhook`); `paused: true` stops matching, `false` resumes. Trace objects read monitors at most every 5 s, so a change reaches spans arriving from then on.
         */
        patch: operations["updateMonitor"];
        trace?: never;
    };
    "/v1/exports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the export settings
         * @description The tenant's OTLP export (header names only: their values are never shown) with what its last delivery attempts came to, or `otlp: null`.
         */
        get: operations["getExports"];
        /**
         * Set the export settings
         * @description Replaces the OTLP export (`otlp: null` removes it). From then on each evaluation made of a trace (`source`: by a monitor or by hand) that ends succeeded or failed is POSTed once to `<endpoint>/v1/logs` as an OTLP log record `gen_ai.evaluation.result` (GenAI semantic conventions) with the judged span's trace and span ids. A 5xx, 408, 429, timeout or network error is retried with backoff for about a day; another answer fails the delivery. The headers are secrets: send them again with each `PUT`.
         */
        put: operations["putExports"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document
         * @description The API contract as OpenAPI 3.1 JSON, generated from the route definitions that validate requests. No auth.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "evaluation.succeeded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Event evaluation.succeeded
         * @description An evaluation ended with a verdict (`data.verdict`, without the transcript: follow `data.links.transcript`). POSTed to every enabled endpoint subscribed to `evaluation.succeeded` (signed with its secret) and to the request's one-off `webhook.url` (signed with the tenant's signing secret). Answer 2xx within 10 s; anything else, a timeout or a network error is retried with backoff for about a day; 410 disables the endpoint. Redirects are not followed.
         */
        post: operations["evaluationSucceededEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "evaluation.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Event evaluation.failed
         * @description An evaluation failed (`data.error` says why, e.g. an LLM failure after its retries). POSTed to every enabled endpoint subscribed to `evaluation.failed` (signed with its secret) and to the request's one-off `webhook.url` (signed with the tenant's signing secret). Answer 2xx within 10 s; anything else, a timeout or a network error is retried with backoff for about a day; 410 disables the endpoint. Redirects are not followed.
         */
        post: operations["evaluationFailedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "evaluation.cancelled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Event evaluation.cancelled
         * @description An evaluation was cancelled. POSTed to every enabled endpoint subscribed to `evaluation.cancelled` (signed with its secret) and to the request's one-off `webhook.url` (signed with the tenant's signing secret). Answer 2xx within 10 s; anything else, a timeout or a network error is retried with backoff for about a day; 410 disables the endpoint. Redirects are not followed.
         */
        post: operations["evaluationCancelledEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "batch.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Event batch.completed
         * @description Every item of a batch ended (`data.status` `cancelled` after a cancel); sent to the batch's `webhook.url` too. Statistics and cost: `data.links.self`; one line per item: `data.links.results`. POSTed to every enabled endpoint subscribed to `batch.completed` (signed with its secret) and to the request's one-off `webhook.url` (signed with the tenant's signing secret). Answer 2xx within 10 s; anything else, a timeout or a network error is retried with backoff for about a day; 410 disables the endpoint. Redirects are not followed.
         */
        post: operations["batchCompletedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "meta_evaluation.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Event meta_evaluation.completed
         * @description Every item of a meta-evaluation ended: its agreement report is ready at `data.links.metaEvaluation`. POSTed to every enabled endpoint subscribed to `meta_evaluation.completed` (signed with its secret) and to the request's one-off `webhook.url` (signed with the tenant's signing secret). Answer 2xx within 10 s; anything else, a timeout or a network error is retried with backoff for about a day; 410 disables the endpoint. Redirects are not followed.
         */
        post: operations["metaEvaluationCompletedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "comparison.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Event comparison.completed
         * @description Every evaluation of a comparison ended (`data.status` `cancelled` after a cancel): the gate's outcome and figures, the ranking, the pairs and the judge's rates; sent once, to the comparison's `webhook.url` too. POSTed to every enabled endpoint subscribed to `comparison.completed` (signed with its secret) and to the request's one-off `webhook.url` (signed with the tenant's signing secret). Answer 2xx within 10 s; anything else, a timeout or a network error is retried with backoff for about a day; 410 disables the endpoint. Redirects are not followed.
         */
        post: operations["comparisonCompletedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "eval.run.succeeded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Event eval.run.succeeded
         * @description An Evals run completed: every item is graded. POSTed to every enabled endpoint subscribed to `eval.run.succeeded` (signed with its secret) and to the request's one-off `webhook.url` (signed with the tenant's signing secret). Answer 2xx within 10 s; anything else, a timeout or a network error is retried with backoff for about a day; 410 disables the endpoint. Redirects are not followed.
         */
        post: operations["evalRunSucceededEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "eval.run.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Event eval.run.failed
         * @description An Evals run failed (`data.error` says why). POSTed to every enabled endpoint subscribed to `eval.run.failed` (signed with its secret) and to the request's one-off `webhook.url` (signed with the tenant's signing secret). Answer 2xx within 10 s; anything else, a timeout or a network error is retried with backoff for about a day; 410 disables the endpoint. Redirects are not followed.
         */
        post: operations["evalRunFailedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "eval.run.canceled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Event eval.run.canceled
         * @description An Evals run was cancelled. POSTed to every enabled endpoint subscribed to `eval.run.canceled` (signed with its secret) and to the request's one-off `webhook.url` (signed with the tenant's signing secret). Answer 2xx within 10 s; anything else, a timeout or a network error is retried with backoff for about a day; 410 disables the endpoint. Redirects are not followed.
         */
        post: operations["evalRunCanceledEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        EvaluationEventData: {
            id: string;
            /** @enum {string} */
            status: "succeeded" | "failed" | "cancelled";
            method: string;
            preset: string | null;
            /** @enum {string} */
            taskKind: "pairwise" | "pointwise" | "trajectory";
            metadata: {
                [key: string]: string | number | boolean;
            } | null;
            verdict: {
                [key: string]: unknown;
            } | null;
            error: {
                code: string;
                message: string;
            } | null;
            usage: {
                calls: number;
                promptTokens: number;
                completionTokens: number;
                cachedPromptTokens: number;
                estimated: boolean;
                costUsd: number;
            };
            rubric: {
                id?: string;
                version?: number;
                hash: string;
            } | null;
            /** @description The trace, span and monitor it judged (`monitorId` null when made by hand), or null when not made of a trace. */
            source: components["schemas"]["EvaluationSource"] | null;
            createdAt: string;
            finishedAt: string;
            links: {
                self: string;
                transcript: string;
                events: string;
            };
        };
        EvaluationSource: {
            traceId: string;
            /** @description The span judged; null when the whole trace was. */
            spanId: string | null;
            /** @description The monitor that made it (`mon_…`); null when made by hand. */
            monitorId: string | null;
        };
        /** @description The completed batch; win rates, usage and cost: `links.self`; one line per item: `links.results`. */
        BatchEventData: {
            id: string;
            /** @enum {string} */
            kind: "batch" | "meta_evaluation";
            /**
             * @description `cancelled` when a cancel was asked before every item ended.
             * @enum {string}
             */
            status: "completed" | "cancelled";
            method: string;
            preset: string | null;
            itemsTotal: number;
            counts: {
                succeeded: number;
                failed: number;
                cancelled: number;
            };
            createdAt: string;
            completedAt: string;
            links: {
                self: string;
                results: string;
                /** @description The agreement report (meta-evaluations only). */
                metaEvaluation: string | null;
            };
        };
        /** @description The completed comparison: the gate's outcome and figures, the ranking, the pairs and the judge's rates; usage and cost: `links.self`; per item: `links.results`. */
        ComparisonEventData: {
            id: string;
            /**
             * @description `cancelled` when a cancel was asked before every evaluation ended (the figures cover what was judged).
             * @enum {string}
             */
            status: "completed" | "cancelled";
            method: string;
            preset: string | null;
            candidates: string[];
            design: components["schemas"]["ComparisonDesign"];
            items: number;
            counts: {
                succeeded: number;
                failed: number;
                cancelled: number;
            };
            gate: components["schemas"]["GateResult"] | null;
            ranking: components["schemas"]["RankingEntry"][];
            pairs: components["schemas"]["ComparisonPair"][];
            judge: components["schemas"]["ComparisonJudgeRates"];
            summary: string;
            createdAt: string;
            completedAt: string;
            links: {
                self: string;
                results: string;
            };
        };
        /** @description `"all-pairs"`: every pair of candidates is judged on every item (n(n − 1)/2 pairs); `{"baseline": "v1"}`: every other candidate against `v1` only (n − 1 pairs), enough for a CI gate and still a ranking (the strengths are identified through the baseline). */
        ComparisonDesign: "all-pairs" | {
            /** @description The candidate every other one is compared with. */
            baseline: string;
        };
        /** @description The gate: `outcome` (`passed` | `failed` | `inconclusive`), the candidate's win rate over the baseline (ties as half) with its Wilson interval at `confidence`, the counts behind it, `moreItems` (about how many more items would likely decide an inconclusive gate; null when the gate decided, when no item has a verdict yet, and when no number of items would likely decide it: a win rate exactly at `minWinRate`, e.g. 0.5 against a 0.5 bar, where more items of the same kind leave the interval spanning the bar, or one needing over 10⁹ items) and a one-line `summary`. */
        GateResult: {
            candidate: string;
            baseline: string;
            minWinRate: number;
            confidence: number;
            /** @enum {string} */
            outcome: "passed" | "failed" | "inconclusive";
            winRate: number | null;
            interval: [
                number,
                number
            ];
            n: number;
            wins: number;
            ties: number;
            losses: number;
            missing: number;
            moreItems: number | null;
            summary: string;
        };
        /** @description A candidate, best first: its Bradley–Terry strength θ (natural log; under bradley-terry P(i beats j) = 1/(1 + e^(θj − θi)), ×400/ln 10 for Elo points), its bootstrap `interval` (items resampled; it always holds `strength`; null while it cannot be computed yet), and its `rank`: 1 + the candidates whose interval lies wholly above its own, so candidates the data cannot separate share a rank. */
        RankingEntry: {
            candidate: string;
            rank: number;
            strength: number;
            interval: [
                number,
                number
            ] | null;
        };
        /** @description One pair, oriented as `a` versus `b` (`a` is listed first in `candidates`): items `a` won, tied and lost, items without a verdict (`missing`: failed, cancelled, abstained), `winRate` = (wins + ties/2) / (wins + ties + losses) and its Wilson `interval`. */
        ComparisonPair: {
            a: string;
            b: string;
            wins: number;
            ties: number;
            losses: number;
            missing: number;
            winRate: number | null;
            interval: [
                number,
                number
            ];
        };
        /** @description The judge over every pair verdict: verdicts missing, the share of ties, and the share of verdicts whose two presentation orders disagreed (`flipRate`, over `flipsMeasured` verdicts where both orders gave one). */
        ComparisonJudgeRates: {
            outcomes: number;
            decided: number;
            missingRate: number | null;
            tieRate: number | null;
            flipsMeasured: number;
            flipRate: number | null;
        };
        /** @description The ended run; its counts and usage: `links.run`. */
        EvalRunEventData: {
            /** @description The run. */
            id: string;
            eval_id: string;
            /** @enum {string} */
            status: "completed" | "failed" | "canceled";
            error: {
                code: string;
                message: string;
            } | null;
            links: {
                run: string;
                output_items: string;
            };
        };
        /** @description The assistant message's content, as JSON text. */
        JudgeVerdict: {
            evaluationId: string;
            model: string;
            preset: string;
            method: string;
            /** @enum {string} */
            taskKind: "pairwise" | "pointwise";
            /** @enum {string} */
            winner?: "A" | "B" | "tie";
            scores?: {
                a: number;
                b: number;
            };
            score?: number;
            scale?: {
                min: number;
                max: number;
            };
            confidence: number;
            positionFlip: boolean | null;
            rationale: string;
            rationaleFrom: components["schemas"]["RationaleSource"] | null;
            unparsed: number;
            calls: number;
            costUsd: number;
            links: components["schemas"]["EvaluationLinks"];
        };
        RationaleSource: {
            callId: string;
            agent: string;
            label: string;
            stage: string;
        };
        EvaluationLinks: {
            self: string;
            events: string;
            transcript: string;
            cancel: string;
        };
        /** @description A judge method's config; `method` selects the variant. Without a preset it is required; with a preset it may be left out (it is the preset's method). Objects merge key by key over the preset's config, arrays and scalars replace. Unknown keys are refused (400 `invalid_config`). */
        MethodConfig: components["schemas"]["SingleConfig"] | components["schemas"]["EnsembleConfig"] | components["schemas"]["ChatevalConfig"] | components["schemas"]["MoreConfig"] | components["schemas"]["SamreConfig"] | components["schemas"]["DebateConfig"] | components["schemas"]["JuryConfig"] | components["schemas"]["CascadeConfig"] | components["schemas"]["RepeatConfig"] | components["schemas"]["Rubric-stepsConfig"];
        /** @description Config of method `single` (ChatEval single agent; FairEval MEC+BPC; FastChat MT-Bench pair-v2; G-Eval; Bandi et al. baseline). Fields left out take the preset's value, else the default shown. */
        SingleConfig: {
            /** @enum {string} */
            method?: "single";
            /** @default 3 */
            parseRetries?: number;
            /**
             * @default instruct
             * @enum {string}
             */
            repair?: "instruct" | "resend";
            /** @default {} */
            defaults?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            /**
             * @default {
             *       "enabled": false,
             *       "combine": "agree-or-tie"
             *     }
             */
            calibration?: {
                /** @default false */
                enabled?: boolean;
                /**
                 * @default agree-or-tie
                 * @enum {string}
                 */
                combine?: "sum-scores" | "mean-scores" | "pooled-mean" | "per-agent-majority" | "agree-or-tie";
            };
            budget?: components["schemas"]["Budget"];
            /** @default  */
            systemPrompt?: string;
            /**
             * @default [Question]
             *     {{question}}
             *     [The Start of Assistant 1’s Answer]
             *     {{answer_a}}
             *     [The End of Assistant 1’s Answer]
             *     [The Start of Assistant 2’s Answer]
             *     {{answer_b}}
             *     [The End of Assistant 2’s Answer]
             *     [System]
             *     We would like to request your feedback on the performance of two AI assistants in response to the user question displayed above.
             *     Please rate the helpfulness, relevance, accuracy, and level of detail of their responses.
             *     Each assistant receives an overall score on a scale of 1 to 10, where a higher score indicates better overall performance.
             *     Please first provide a comprehensive explanation of your evaluation, avoiding any potential bias and ensuring that the order in which the responses were presented does not affect your judgment.
             *     Then, output two lines indicating the scores for Assistant 1 and 2, respectively.
             *
             *     Output with the following format strictly:
             *     Evaluation evidence: [your explanation here]
             *     The score of Assistant 1: [score only]
             *     The score of Assistant 2: [score only]
             */
            template?: string;
            /** @default {} */
            templatesByAspect?: {
                [key: string]: string;
            };
            /**
             * @default user
             * @enum {string}
             */
            templateRole?: "user" | "system";
            /** @default  */
            referenceSystemPrompt?: string;
            /** @default  */
            referenceTemplate?: string;
            multiTurn?: {
                /** @default  */
                systemPrompt?: string;
                template: string;
                /** @default  */
                referenceSystemPrompt?: string;
                /** @default  */
                referenceTemplate?: string;
            };
            /** @default false */
            aspectsInOneCall?: boolean;
            aspectsTemplate?: string;
            parser?: components["schemas"]["ParserSpec"];
            /** @default 1 */
            samples?: number;
            /**
             * @default drop
             * @enum {string}
             */
            unparsed?: "drop" | "tie" | "zero";
            /**
             * @default summeval
             * @enum {string}
             */
            aspectSet?: "summeval" | "topical-chat";
            /** @default Judge */
            label?: string;
        };
        /**
         * @description Spending limits checked before every LLM call (the prompt counted with a tokenizer, the completion bounded by the call's `maxTokens`, the cost from the price table). Protocols that can stop early (SAMRE rounds and jury, DEBATE iterations, ChatEval's final turn) return their verdict with `budgetTruncated: true` and `truncation`; others end `failed` with code `budget_exceeded` before spending past it.
         * @example {
         *       "maxCostUsd": 0.05
         *     }
         * @example {
         *       "maxCalls": 12,
         *       "maxTokens": 60000
         *     }
         */
        Budget: {
            maxCostUsd?: number;
            maxCalls?: number;
            maxTokens?: number;
        };
        /**
         * @default {
         *       "type": "chateval-scores",
         *       "min": 1,
         *       "max": 10,
         *       "read": "script"
         *     }
         */
        ParserSpec: {
            /** @enum {string} */
            type: "text";
        } | {
            /** @enum {string} */
            type: "chateval-scores";
            min: number;
            max: number;
            /** @enum {string} */
            read?: "script";
        } | {
            /** @enum {string} */
            type: "faireval-scores";
        } | {
            /** @enum {string} */
            type: "geval-score";
        } | {
            /** @enum {string} */
            type: "last-char";
        } | {
            /** @enum {string} */
            type: "debate-score";
            /** @enum {string} */
            from: "first" | "last";
        } | {
            /** @enum {string} */
            type: "bandi-tuple";
            /** @enum {string} */
            rule: "first-decimal" | "first-int" | "last-int";
        } | {
            /** @enum {string} */
            type: "score-tuple";
            min: number;
            max: number;
            line?: string;
        } | {
            /** @enum {string} */
            type: "fastchat-verdict";
        } | {
            /** @enum {string} */
            type: "assistant-choice";
        } | {
            /** @enum {string} */
            type: "leading-number";
            min: number;
            max: number;
        } | {
            /** @enum {string} */
            type: "labelled-score";
            label: string;
            min: number;
            max: number;
        } | {
            /** @enum {string} */
            type: "critique";
            /** @enum {string} */
            noIssue?: "code";
        } | {
            /** @enum {string} */
            type: "aspect-scores";
            aspects: {
                name: string;
                min: number;
                max: number;
            }[];
            steps?: number;
        } | {
            /** @enum {string} */
            type: "steps";
        } | {
            /** @enum {string} */
            type: "json";
            /** @enum {string} */
            shape: "pair-scores" | "winner" | "score";
            min?: number;
            max?: number;
            fallback?: components["schemas"]["ParserSpec"];
        };
        /** @description Config of method `ensemble` (ChatEval arXiv §3.2 (Multi-Agent Ensemble), Tables 1-2). Fields left out take the preset's value, else the default shown. */
        EnsembleConfig: {
            /** @enum {string} */
            method?: "ensemble";
            /** @default 3 */
            parseRetries?: number;
            /**
             * @default instruct
             * @enum {string}
             */
            repair?: "instruct" | "resend";
            /** @default {} */
            defaults?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            /**
             * @default {
             *       "enabled": false,
             *       "combine": "agree-or-tie"
             *     }
             */
            calibration?: {
                /** @default false */
                enabled?: boolean;
                /**
                 * @default agree-or-tie
                 * @enum {string}
                 */
                combine?: "sum-scores" | "mean-scores" | "pooled-mean" | "per-agent-majority" | "agree-or-tie";
            };
            budget?: components["schemas"]["Budget"];
            /** @enum {string} */
            roleGroup?: "generic" | "coding" | "writing" | "knowledge";
            /**
             * @default code
             * @enum {string}
             */
            promptSource?: "code" | "paper";
            /**
             * @default {
             *       "min": 1,
             *       "max": 10
             *     }
             */
            scale?: {
                min: number;
                max: number;
            };
            /** @default {} */
            aspectDescriptions?: {
                [key: string]: string;
            };
            /**
             * @default script
             * @enum {string}
             */
            scoreRead?: "script" | "lenient";
            /**
             * @default labelled
             * @enum {string}
             */
            pointwiseRead?: "labelled" | "last-char";
            /**
             * @default total
             * @enum {string}
             */
            aggregate?: "total" | "majority";
            /**
             * @default tie
             * @enum {string}
             */
            unparsed?: "tie" | "ignore";
            /**
             * @default [
             *       {
             *         "role": "General Public"
             *       },
             *       {
             *         "role": "Critic"
             *       },
             *       {
             *         "role": "News Author"
             *       }
             *     ]
             */
            agents?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
                role?: string | {
                    name: string;
                    description: string;
                };
            }[];
            /** @default {} */
            templates?: {
                /**
                 * @default [Question]
                 *     {{source_text}}
                 *     [The Start of Assistant 1’s Answer]
                 *     {{compared_text_one}}
                 *     [The End of Assistant 1’s Answer]
                 *     [The Start of Assistant 2’s Answer]
                 *     {{compared_text_two}}
                 *     [The End of Assistant 2’s Answer]
                 *     [System]
                 *     We would like to request your feedback on the performance of two AI assistants in response to the user question displayed above.
                 *     Please rate the helpfulness, relevance, accuracy, and level of detail of their responses.
                 *     Each assistant receives an overall score on a scale of 1 to 10, where a higher score indicates better overall performance.
                 *     {{role_description}}
                 *     Please first provide a comprehensive explanation of your evaluation, avoiding any potential bias and ensuring that the order in which the responses were presented does not affect your judgment.
                 *     Then, output two lines indicating the scores for Assistant 1 and 2, respectively.
                 *
                 *     Output with the following format strictly:
                 *     Evaluation evidence: [your explanation here]
                 *     The score of Assistant 1: [score only]
                 *     The score of Assistant 2: [score only]
                 */
                pairwise?: string;
                /**
                 * @default Please first provide a comprehensive explanation of your evaluation, avoiding any potential bias and ensuring that the order in which the responses were presented does not affect your judgment.
                 *     Then, output two lines indicating the scores for Assistant 1 and 2, respectively.
                 *
                 *     Remember that you are not required to output the same value as other referees !
                 *     Output with the following format strictly:
                 *     Evaluation evidence: [your explanation here]
                 *     The score of Assistant 1: [score only]
                 *     The score of Assistant 2: [score only]
                 */
                pairwiseFinal?: string;
                /**
                 * @default You will be given a source text and an output produced from it. Your task is to rate the output on one metric.
                 *
                 *     Evaluation Criteria:
                 *
                 *     {{aspect}} ({{scale_min}}-{{scale_max}}) {{aspect_description}}
                 *
                 *     Source:
                 *
                 *     {{source}}
                 *
                 *     {{context}}
                 *
                 *     Output:
                 *
                 *     {{output}}
                 *
                 *     {{role_description}}
                 *
                 *     {{final_prompt}}
                 */
                pointwise?: string;
                /** @default {} */
                pointwiseByAspect?: {
                    [key: string]: string;
                };
                /**
                 * @default Evaluation Form (scores ONLY):
                 *
                 *     - {{aspect}}:
                 */
                pointwiseFinal?: string;
            };
        };
        /** @description Config of method `chateval` (ChatEval (Chan et al.) §2, Appendix A Table 6, Appendix B Alg. 1-3; thunlp/ChatEval configs). Fields left out take the preset's value, else the default shown. */
        ChatevalConfig: {
            /** @enum {string} */
            method?: "chateval";
            /** @default 3 */
            parseRetries?: number;
            /**
             * @default instruct
             * @enum {string}
             */
            repair?: "instruct" | "resend";
            /** @default {} */
            defaults?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            /**
             * @default {
             *       "enabled": false,
             *       "combine": "agree-or-tie"
             *     }
             */
            calibration?: {
                /** @default false */
                enabled?: boolean;
                /**
                 * @default agree-or-tie
                 * @enum {string}
                 */
                combine?: "sum-scores" | "mean-scores" | "pooled-mean" | "per-agent-majority" | "agree-or-tie";
            };
            budget?: components["schemas"]["Budget"];
            /** @enum {string} */
            roleGroup?: "generic" | "coding" | "writing" | "knowledge";
            /**
             * @default code
             * @enum {string}
             */
            promptSource?: "code" | "paper";
            /**
             * @default {
             *       "min": 1,
             *       "max": 10
             *     }
             */
            scale?: {
                min: number;
                max: number;
            };
            /** @default {} */
            aspectDescriptions?: {
                [key: string]: string;
            };
            /**
             * @default script
             * @enum {string}
             */
            scoreRead?: "script" | "lenient";
            /**
             * @default labelled
             * @enum {string}
             */
            pointwiseRead?: "labelled" | "last-char";
            /**
             * @default total
             * @enum {string}
             */
            aggregate?: "total" | "majority";
            /**
             * @default tie
             * @enum {string}
             */
            unparsed?: "tie" | "ignore";
            /**
             * @default one-by-one
             * @enum {string}
             */
            strategy?: "one-by-one" | "simultaneous-talk" | "simultaneous-talk-with-summarizer";
            /** @default 2 */
            turns?: number;
            /**
             * @default [
             *       {
             *         "role": "General Public"
             *       },
             *       {
             *         "role": "Critic"
             *       }
             *     ]
             */
            agents?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
                role?: string | {
                    name: string;
                    description: string;
                };
            }[];
            /** @default false */
            sameRole?: boolean;
            /** @default {} */
            summarizer?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            /**
             * @default append
             * @enum {string}
             */
            summaryMode?: "append" | "replace";
            /** @default {} */
            templates?: {
                pairwise?: string;
                /**
                 * @default Please first provide a comprehensive explanation of your evaluation, avoiding any potential bias and ensuring that the order in which the responses were presented does not affect your judgment.
                 *     Then, output two lines indicating the scores for Assistant 1 and 2, respectively.
                 *
                 *     Remember that you are not required to output the same value as other referees !
                 *     Output with the following format strictly:
                 *     Evaluation evidence: [your explanation here]
                 *     The score of Assistant 1: [score only]
                 *     The score of Assistant 2: [score only]
                 */
                pairwiseFinal?: string;
                /**
                 * @default You will be given a source text and an output produced from it. Your task is to rate the output on one metric.
                 *
                 *     Evaluation Criteria:
                 *
                 *     {{aspect}} ({{scale_min}}-{{scale_max}}) {{aspect_description}}
                 *
                 *     Source:
                 *
                 *     {{source}}
                 *
                 *     {{context}}
                 *
                 *     Output:
                 *
                 *     {{output}}
                 *
                 *     There are a few other referees assigned the same task, it’s your responsibility to discuss with them and think critically before you make your final judgment.
                 *     Here is your discussion history:
                 *     {{chat_history}}
                 *
                 *     {{role_description}}
                 *
                 *     Now, what is your opinion, {{agent_name}} ?
                 *
                 *     {{final_prompt}}
                 */
                pointwise?: string;
                /** @default {} */
                pointwiseByAspect?: {
                    [key: string]: string;
                };
                /**
                 * @default Evaluation Form (scores ONLY):
                 *
                 *     - {{aspect}}:
                 */
                pointwiseFinal?: string;
                /**
                 * @default Summarize the lines of the new lines which contains the currently observed chat history with other people.
                 *     Based on the Current summary, you need to summarize from the New lines , add it onto the previous summary, and eventually return a New summary.
                 *
                 *     Now, try to summarize the following record.
                 *
                 *     Current summary:
                 *     {{summary}}
                 *
                 *     New lines:
                 *     {{new_lines}}
                 *
                 *     New summary:
                 */
                summary?: string;
            };
        };
        /** @description Config of method `more` (Bandi et al. §3.1, Alg. 1, App. C.2, E.2; LLM-Judging-Architectures utils/MORE_architecture.py). Fields left out take the preset's value, else the default shown. */
        MoreConfig: {
            /** @enum {string} */
            method?: "more";
            /** @default 3 */
            parseRetries?: number;
            /**
             * @default instruct
             * @enum {string}
             */
            repair?: "instruct" | "resend";
            /** @default {} */
            defaults?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            /**
             * @default {
             *       "enabled": false,
             *       "combine": "agree-or-tie"
             *     }
             */
            calibration?: {
                /** @default false */
                enabled?: boolean;
                /**
                 * @default agree-or-tie
                 * @enum {string}
                 */
                combine?: "sum-scores" | "mean-scores" | "pooled-mean" | "per-agent-majority" | "agree-or-tie";
            };
            budget?: components["schemas"]["Budget"];
            /** @default 3 */
            advocatesPerSide?: number;
            /**
             * @default sequential
             * @enum {string}
             */
            groupOrder?: "sequential" | "parallel";
            /**
             * @default code
             * @enum {string}
             */
            promptSource?: "code" | "paper";
            /** @default {} */
            advocates?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            /** @default {} */
            aggregator?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            /** @default {} */
            judge?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            /** @default {} */
            templates?: {
                advocate?: string;
                aggregate?: string;
                judge?: string;
            };
        };
        /** @description Config of method `samre` (Bandi et al. §3.2, Alg. 2, App. C.2-C.3, E.1; LLM-Judging-Architectures utils/SAMRE_architecture.py). Fields left out take the preset's value, else the default shown. */
        SamreConfig: {
            /** @enum {string} */
            method?: "samre";
            /** @default 3 */
            parseRetries?: number;
            /**
             * @default instruct
             * @enum {string}
             */
            repair?: "instruct" | "resend";
            /** @default {} */
            defaults?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            /**
             * @default {
             *       "enabled": false,
             *       "combine": "agree-or-tie"
             *     }
             */
            calibration?: {
                /** @default false */
                enabled?: boolean;
                /**
                 * @default agree-or-tie
                 * @enum {string}
                 */
                combine?: "sum-scores" | "mean-scores" | "pooled-mean" | "per-agent-majority" | "agree-or-tie";
            };
            budget?: components["schemas"]["Budget"];
            /**
             * @default code
             * @enum {string}
             */
            flow?: "code" | "paper";
            /** @default 4 */
            maxRounds?: number;
            /** @default false */
            earlyStop?: boolean;
            /** @default 3 */
            jurorCount?: number;
            /**
             * @default [
             *       "A retired professor of ethics",
             *       "A young environmental activist",
             *       "A middle-aged business owner",
             *       "A social worker specializing in community development",
             *       "A technology entrepreneur with a background in AI"
             *     ]
             */
            jurorBackgrounds?: string[];
            /**
             * @default zero
             * @enum {string}
             */
            unparsedRound?: "zero" | "skip";
            /**
             * @default tie
             * @enum {string}
             */
            jurorTie?: "tie" | "judge-mean";
            /** @default {} */
            advocates?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            /** @default {} */
            judge?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            /** @default {} */
            jurors?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            /** @default {} */
            summarizer?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            /** @default {} */
            templates?: {
                advocate?: string;
                judge?: string;
                juror?: string;
                summarizer?: string;
            };
        };
        /** @description Config of method `debate` (DEBATE (Kim et al.) §3, Algorithm 1, Appendix B.1, C.3, E.1-E.2). Fields left out take the preset's value, else the default shown. */
        DebateConfig: {
            /** @enum {string} */
            method?: "debate";
            /** @default 3 */
            parseRetries?: number;
            /**
             * @default instruct
             * @enum {string}
             */
            repair?: "instruct" | "resend";
            /** @default {} */
            defaults?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            /**
             * @default {
             *       "enabled": false,
             *       "combine": "agree-or-tie"
             *     }
             */
            calibration?: {
                /** @default false */
                enabled?: boolean;
                /**
                 * @default agree-or-tie
                 * @enum {string}
                 */
                combine?: "sum-scores" | "mean-scores" | "pooled-mean" | "per-agent-majority" | "agree-or-tie";
            };
            budget?: components["schemas"]["Budget"];
            /** @default 2 */
            maxIterations?: number;
            /**
             * @default generic
             * @enum {string}
             */
            domain?: "summeval" | "topical-chat" | "generic";
            /**
             * @default code
             * @enum {string}
             */
            flow?: "code" | "paper";
            /**
             * @default code
             * @enum {string}
             */
            promptSource?: "code" | "paper";
            /**
             * @default first-reply
             * @enum {string}
             */
            criticSees?: "first-reply" | "latest-reply";
            /**
             * @default strict
             * @enum {string}
             */
            criticPersona?: "strict" | "moderate" | "weak" | "plain";
            criticSystem?: string;
            scorerSystem?: string;
            commanderSystem?: string;
            commanderMessage?: string;
            /** @default false */
            useTieBreaker?: boolean;
            tieBreakerSystem?: string;
            /** @default {} */
            templates?: {
                evaluation?: string;
                scorer?: string;
                critic?: string;
                criticFollowUp?: string;
                revise?: string;
                tieBreaker?: string;
            };
            /** @default {} */
            scorer?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            /** @default {} */
            commander?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            /** @default {} */
            critic?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            /** @default {} */
            tieBreaker?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
        };
        /** @description Config of method `jury` (Verga et al. 2024, Replacing Judges with Juries (PoLL), arXiv 2404.18796 §2-3). Fields left out take the preset's value, else the default shown. */
        JuryConfig: {
            /** @enum {string} */
            method?: "jury";
            /** @default 3 */
            parseRetries?: number;
            /**
             * @default instruct
             * @enum {string}
             */
            repair?: "instruct" | "resend";
            /** @default {} */
            defaults?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            /**
             * @default {
             *       "enabled": false,
             *       "combine": "agree-or-tie"
             *     }
             */
            calibration?: {
                /** @default false */
                enabled?: boolean;
                /**
                 * @default agree-or-tie
                 * @enum {string}
                 */
                combine?: "sum-scores" | "mean-scores" | "pooled-mean" | "per-agent-majority" | "agree-or-tie";
            };
            budget?: components["schemas"]["Budget"];
            /** @default {} */
            judge?: {
                budget?: components["schemas"]["Budget"];
                /** @default  */
                systemPrompt?: string;
                /**
                 * @default [Question]
                 *     {{question}}
                 *     [The Start of Assistant 1’s Answer]
                 *     {{answer_a}}
                 *     [The End of Assistant 1’s Answer]
                 *     [The Start of Assistant 2’s Answer]
                 *     {{answer_b}}
                 *     [The End of Assistant 2’s Answer]
                 *     [System]
                 *     We would like to request your feedback on the performance of two AI assistants in response to the user question displayed above.
                 *     Please rate the helpfulness, relevance, accuracy, and level of detail of their responses.
                 *     Each assistant receives an overall score on a scale of 1 to 10, where a higher score indicates better overall performance.
                 *     Please first provide a comprehensive explanation of your evaluation, avoiding any potential bias and ensuring that the order in which the responses were presented does not affect your judgment.
                 *     Then, output two lines indicating the scores for Assistant 1 and 2, respectively.
                 *
                 *     Output with the following format strictly:
                 *     Evaluation evidence: [your explanation here]
                 *     The score of Assistant 1: [score only]
                 *     The score of Assistant 2: [score only]
                 */
                template?: string;
                /** @default {} */
                templatesByAspect?: {
                    [key: string]: string;
                };
                /**
                 * @default user
                 * @enum {string}
                 */
                templateRole?: "user" | "system";
                /** @default  */
                referenceSystemPrompt?: string;
                /** @default  */
                referenceTemplate?: string;
                multiTurn?: {
                    /** @default  */
                    systemPrompt?: string;
                    template: string;
                    /** @default  */
                    referenceSystemPrompt?: string;
                    /** @default  */
                    referenceTemplate?: string;
                };
                /** @default false */
                aspectsInOneCall?: boolean;
                aspectsTemplate?: string;
                parser?: components["schemas"]["ParserSpec"];
                /** @default 1 */
                samples?: number;
                /**
                 * @default drop
                 * @enum {string}
                 */
                unparsed?: "drop" | "tie" | "zero";
                /**
                 * @default summeval
                 * @enum {string}
                 */
                aspectSet?: "summeval" | "topical-chat";
            };
            /**
             * @default [
             *       {},
             *       {},
             *       {}
             *     ]
             */
            jurors?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
                label?: string;
            }[];
            /**
             * @default auto
             * @enum {string}
             */
            aggregate?: "auto" | "vote" | "mean";
        };
        /** @description Config of method `cascade` (Jung et al. 2024, Trust or Escalate (cascaded selective evaluation), arXiv 2407.18370 §3-4). Fields left out take the preset's value, else the default shown. */
        CascadeConfig: {
            /** @enum {string} */
            method?: "cascade";
            /** @default {} */
            defaults?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            stages: {
                label?: string;
                preset?: string;
                config?: {
                    [key: string]: unknown;
                };
                escalate?: {
                    /** @default true */
                    orderFlip?: boolean;
                    /** @default true */
                    split?: boolean;
                    /** @default false */
                    tie?: boolean;
                    /** @default true */
                    unparsed?: boolean;
                    /** @default 0 */
                    minConfidence?: number;
                };
            }[];
            /** @default false */
            runAllStages?: boolean;
            calibrated?: {
                thresholds: (number | null)[];
                alpha?: number;
                delta?: number;
            };
        };
        /** @description Config of method `repeat` (Tribunal: test-retest of one judge (no paper)). Fields left out take the preset's value, else the default shown. */
        RepeatConfig: {
            /** @enum {string} */
            method?: "repeat";
            n: number;
            judge: {
                [key: string]: unknown;
            };
            budget?: components["schemas"]["Budget"];
        };
        /** @description Config of method `rubric-steps` (G-Eval (Liu et al. 2023) §2, auto chain-of-thought: evaluation steps generated from the criteria). Fields left out take the preset's value, else the default shown. */
        "Rubric-stepsConfig": {
            /** @enum {string} */
            method?: "rubric-steps";
            /** @default 3 */
            parseRetries?: number;
            /**
             * @default instruct
             * @enum {string}
             */
            repair?: "instruct" | "resend";
            /** @default {} */
            defaults?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            /**
             * @default {
             *       "enabled": false,
             *       "combine": "agree-or-tie"
             *     }
             */
            calibration?: {
                /** @default false */
                enabled?: boolean;
                /**
                 * @default agree-or-tie
                 * @enum {string}
                 */
                combine?: "sum-scores" | "mean-scores" | "pooled-mean" | "per-agent-majority" | "agree-or-tie";
            };
            budget?: components["schemas"]["Budget"];
            /** @default {} */
            writer?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            /** @default {} */
            templates?: {
                /**
                 * @default You will be given one output produced from a source text.
                 *
                 *     Your task is to rate the output on one metric.
                 *
                 *     Please make sure you read and understand these instructions carefully. Please keep this document open while reviewing, and refer to it as needed.
                 *
                 *     Evaluation Criteria:
                 *
                 *     {{Aspect}} ({{min}}-{{max}}) - {{criteria}}
                 *
                 *     Evaluation Steps:
                 */
                pointwise?: string;
                /**
                 * @default You will be given a question and two answers to it.
                 *
                 *     Your task is to decide which answer is better.
                 *
                 *     Please make sure you read and understand these instructions carefully. Please keep this document open while reviewing, and refer to it as needed.
                 *
                 *     Evaluation Criteria:
                 *
                 *     {{criteria}}
                 *
                 *     Evaluation Steps:
                 */
                pairwise?: string;
            };
        };
        /** @description A request's `config`: overrides merged over the preset's config (objects key by key, arrays and scalars replace), so every field is optional at every depth; without a preset, a full config with `method`. The merged result must satisfy `MethodConfig`; unknown keys are refused (400 `invalid_config`). */
        MethodConfigOverrides: components["schemas"]["SingleConfigOverrides"] | components["schemas"]["EnsembleConfigOverrides"] | components["schemas"]["ChatevalConfigOverrides"] | components["schemas"]["MoreConfigOverrides"] | components["schemas"]["SamreConfigOverrides"] | components["schemas"]["DebateConfigOverrides"] | components["schemas"]["JuryConfigOverrides"] | components["schemas"]["CascadeConfigOverrides"] | components["schemas"]["RepeatConfigOverrides"] | components["schemas"]["Rubric-stepsConfigOverrides"];
        /** @description Overrides of method `single`'s config (see `SingleConfig`): every field optional at every depth. Objects merge key by key over the preset's config; arrays and scalars replace. */
        SingleConfigOverrides: {
            /** @enum {string} */
            method?: "single";
            parseRetries?: number;
            /** @enum {string} */
            repair?: "instruct" | "resend";
            defaults?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            calibration?: {
                enabled?: boolean;
                /** @enum {string} */
                combine?: "sum-scores" | "mean-scores" | "pooled-mean" | "per-agent-majority" | "agree-or-tie";
            };
            /** @description Spending limits checked before every LLM call (the prompt counted with a tokenizer, the completion bounded by the call's `maxTokens`, the cost from the price table). Protocols that can stop early (SAMRE rounds and jury, DEBATE iterations, ChatEval's final turn) return their verdict with `budgetTruncated: true` and `truncation`; others end `failed` with code `budget_exceeded` before spending past it. */
            budget?: {
                maxCostUsd?: number;
                maxCalls?: number;
                maxTokens?: number;
            };
            systemPrompt?: string;
            template?: string;
            templatesByAspect?: {
                [key: string]: string;
            };
            /** @enum {string} */
            templateRole?: "user" | "system";
            referenceSystemPrompt?: string;
            referenceTemplate?: string;
            multiTurn?: {
                systemPrompt?: string;
                template?: string;
                referenceSystemPrompt?: string;
                referenceTemplate?: string;
            };
            aspectsInOneCall?: boolean;
            aspectsTemplate?: string;
            parser?: components["schemas"]["ParserSpec"];
            samples?: number;
            /** @enum {string} */
            unparsed?: "drop" | "tie" | "zero";
            /** @enum {string} */
            aspectSet?: "summeval" | "topical-chat";
            label?: string;
        };
        /** @description Overrides of method `ensemble`'s config (see `EnsembleConfig`): every field optional at every depth. Objects merge key by key over the preset's config; arrays and scalars replace. */
        EnsembleConfigOverrides: {
            /** @enum {string} */
            method?: "ensemble";
            parseRetries?: number;
            /** @enum {string} */
            repair?: "instruct" | "resend";
            defaults?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            calibration?: {
                enabled?: boolean;
                /** @enum {string} */
                combine?: "sum-scores" | "mean-scores" | "pooled-mean" | "per-agent-majority" | "agree-or-tie";
            };
            /** @description Spending limits checked before every LLM call (the prompt counted with a tokenizer, the completion bounded by the call's `maxTokens`, the cost from the price table). Protocols that can stop early (SAMRE rounds and jury, DEBATE iterations, ChatEval's final turn) return their verdict with `budgetTruncated: true` and `truncation`; others end `failed` with code `budget_exceeded` before spending past it. */
            budget?: {
                maxCostUsd?: number;
                maxCalls?: number;
                maxTokens?: number;
            };
            /** @enum {string} */
            roleGroup?: "generic" | "coding" | "writing" | "knowledge";
            /** @enum {string} */
            promptSource?: "code" | "paper";
            scale?: {
                min?: number;
                max?: number;
            };
            aspectDescriptions?: {
                [key: string]: string;
            };
            /** @enum {string} */
            scoreRead?: "script" | "lenient";
            /** @enum {string} */
            pointwiseRead?: "labelled" | "last-char";
            /** @enum {string} */
            aggregate?: "total" | "majority";
            /** @enum {string} */
            unparsed?: "tie" | "ignore";
            agents?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
                role?: string | {
                    name: string;
                    description: string;
                };
            }[];
            templates?: {
                pairwise?: string;
                pairwiseFinal?: string;
                pointwise?: string;
                pointwiseByAspect?: {
                    [key: string]: string;
                };
                pointwiseFinal?: string;
            };
        };
        /** @description Overrides of method `chateval`'s config (see `ChatevalConfig`): every field optional at every depth. Objects merge key by key over the preset's config; arrays and scalars replace. */
        ChatevalConfigOverrides: {
            /** @enum {string} */
            method?: "chateval";
            parseRetries?: number;
            /** @enum {string} */
            repair?: "instruct" | "resend";
            defaults?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            calibration?: {
                enabled?: boolean;
                /** @enum {string} */
                combine?: "sum-scores" | "mean-scores" | "pooled-mean" | "per-agent-majority" | "agree-or-tie";
            };
            /** @description Spending limits checked before every LLM call (the prompt counted with a tokenizer, the completion bounded by the call's `maxTokens`, the cost from the price table). Protocols that can stop early (SAMRE rounds and jury, DEBATE iterations, ChatEval's final turn) return their verdict with `budgetTruncated: true` and `truncation`; others end `failed` with code `budget_exceeded` before spending past it. */
            budget?: {
                maxCostUsd?: number;
                maxCalls?: number;
                maxTokens?: number;
            };
            /** @enum {string} */
            roleGroup?: "generic" | "coding" | "writing" | "knowledge";
            /** @enum {string} */
            promptSource?: "code" | "paper";
            scale?: {
                min?: number;
                max?: number;
            };
            aspectDescriptions?: {
                [key: string]: string;
            };
            /** @enum {string} */
            scoreRead?: "script" | "lenient";
            /** @enum {string} */
            pointwiseRead?: "labelled" | "last-char";
            /** @enum {string} */
            aggregate?: "total" | "majority";
            /** @enum {string} */
            unparsed?: "tie" | "ignore";
            /** @enum {string} */
            strategy?: "one-by-one" | "simultaneous-talk" | "simultaneous-talk-with-summarizer";
            turns?: number;
            agents?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
                role?: string | {
                    name: string;
                    description: string;
                };
            }[];
            sameRole?: boolean;
            summarizer?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            /** @enum {string} */
            summaryMode?: "append" | "replace";
            templates?: {
                pairwise?: string;
                pairwiseFinal?: string;
                pointwise?: string;
                pointwiseByAspect?: {
                    [key: string]: string;
                };
                pointwiseFinal?: string;
                summary?: string;
            };
        };
        /** @description Overrides of method `more`'s config (see `MoreConfig`): every field optional at every depth. Objects merge key by key over the preset's config; arrays and scalars replace. */
        MoreConfigOverrides: {
            /** @enum {string} */
            method?: "more";
            parseRetries?: number;
            /** @enum {string} */
            repair?: "instruct" | "resend";
            defaults?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            calibration?: {
                enabled?: boolean;
                /** @enum {string} */
                combine?: "sum-scores" | "mean-scores" | "pooled-mean" | "per-agent-majority" | "agree-or-tie";
            };
            /** @description Spending limits checked before every LLM call (the prompt counted with a tokenizer, the completion bounded by the call's `maxTokens`, the cost from the price table). Protocols that can stop early (SAMRE rounds and jury, DEBATE iterations, ChatEval's final turn) return their verdict with `budgetTruncated: true` and `truncation`; others end `failed` with code `budget_exceeded` before spending past it. */
            budget?: {
                maxCostUsd?: number;
                maxCalls?: number;
                maxTokens?: number;
            };
            advocatesPerSide?: number;
            /** @enum {string} */
            groupOrder?: "sequential" | "parallel";
            /** @enum {string} */
            promptSource?: "code" | "paper";
            advocates?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            aggregator?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            judge?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            templates?: {
                advocate?: string;
                aggregate?: string;
                judge?: string;
            };
        };
        /** @description Overrides of method `samre`'s config (see `SamreConfig`): every field optional at every depth. Objects merge key by key over the preset's config; arrays and scalars replace. */
        SamreConfigOverrides: {
            /** @enum {string} */
            method?: "samre";
            parseRetries?: number;
            /** @enum {string} */
            repair?: "instruct" | "resend";
            defaults?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            calibration?: {
                enabled?: boolean;
                /** @enum {string} */
                combine?: "sum-scores" | "mean-scores" | "pooled-mean" | "per-agent-majority" | "agree-or-tie";
            };
            /** @description Spending limits checked before every LLM call (the prompt counted with a tokenizer, the completion bounded by the call's `maxTokens`, the cost from the price table). Protocols that can stop early (SAMRE rounds and jury, DEBATE iterations, ChatEval's final turn) return their verdict with `budgetTruncated: true` and `truncation`; others end `failed` with code `budget_exceeded` before spending past it. */
            budget?: {
                maxCostUsd?: number;
                maxCalls?: number;
                maxTokens?: number;
            };
            /** @enum {string} */
            flow?: "code" | "paper";
            maxRounds?: number;
            earlyStop?: boolean;
            jurorCount?: number;
            jurorBackgrounds?: string[];
            /** @enum {string} */
            unparsedRound?: "zero" | "skip";
            /** @enum {string} */
            jurorTie?: "tie" | "judge-mean";
            advocates?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            judge?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            jurors?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            summarizer?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            templates?: {
                advocate?: string;
                judge?: string;
                juror?: string;
                summarizer?: string;
            };
        };
        /** @description Overrides of method `debate`'s config (see `DebateConfig`): every field optional at every depth. Objects merge key by key over the preset's config; arrays and scalars replace. */
        DebateConfigOverrides: {
            /** @enum {string} */
            method?: "debate";
            parseRetries?: number;
            /** @enum {string} */
            repair?: "instruct" | "resend";
            defaults?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            calibration?: {
                enabled?: boolean;
                /** @enum {string} */
                combine?: "sum-scores" | "mean-scores" | "pooled-mean" | "per-agent-majority" | "agree-or-tie";
            };
            /** @description Spending limits checked before every LLM call (the prompt counted with a tokenizer, the completion bounded by the call's `maxTokens`, the cost from the price table). Protocols that can stop early (SAMRE rounds and jury, DEBATE iterations, ChatEval's final turn) return their verdict with `budgetTruncated: true` and `truncation`; others end `failed` with code `budget_exceeded` before spending past it. */
            budget?: {
                maxCostUsd?: number;
                maxCalls?: number;
                maxTokens?: number;
            };
            maxIterations?: number;
            /** @enum {string} */
            domain?: "summeval" | "topical-chat" | "generic";
            /** @enum {string} */
            flow?: "code" | "paper";
            /** @enum {string} */
            promptSource?: "code" | "paper";
            /** @enum {string} */
            criticSees?: "first-reply" | "latest-reply";
            /** @enum {string} */
            criticPersona?: "strict" | "moderate" | "weak" | "plain";
            criticSystem?: string;
            scorerSystem?: string;
            commanderSystem?: string;
            commanderMessage?: string;
            useTieBreaker?: boolean;
            tieBreakerSystem?: string;
            templates?: {
                evaluation?: string;
                scorer?: string;
                critic?: string;
                criticFollowUp?: string;
                revise?: string;
                tieBreaker?: string;
            };
            scorer?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            commander?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            critic?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            tieBreaker?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
        };
        /** @description Overrides of method `jury`'s config (see `JuryConfig`): every field optional at every depth. Objects merge key by key over the preset's config; arrays and scalars replace. */
        JuryConfigOverrides: {
            /** @enum {string} */
            method?: "jury";
            parseRetries?: number;
            /** @enum {string} */
            repair?: "instruct" | "resend";
            defaults?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            calibration?: {
                enabled?: boolean;
                /** @enum {string} */
                combine?: "sum-scores" | "mean-scores" | "pooled-mean" | "per-agent-majority" | "agree-or-tie";
            };
            /** @description Spending limits checked before every LLM call (the prompt counted with a tokenizer, the completion bounded by the call's `maxTokens`, the cost from the price table). Protocols that can stop early (SAMRE rounds and jury, DEBATE iterations, ChatEval's final turn) return their verdict with `budgetTruncated: true` and `truncation`; others end `failed` with code `budget_exceeded` before spending past it. */
            budget?: {
                maxCostUsd?: number;
                maxCalls?: number;
                maxTokens?: number;
            };
            judge?: {
                /** @description Spending limits checked before every LLM call (the prompt counted with a tokenizer, the completion bounded by the call's `maxTokens`, the cost from the price table). Protocols that can stop early (SAMRE rounds and jury, DEBATE iterations, ChatEval's final turn) return their verdict with `budgetTruncated: true` and `truncation`; others end `failed` with code `budget_exceeded` before spending past it. */
                budget?: {
                    maxCostUsd?: number;
                    maxCalls?: number;
                    maxTokens?: number;
                };
                systemPrompt?: string;
                template?: string;
                templatesByAspect?: {
                    [key: string]: string;
                };
                /** @enum {string} */
                templateRole?: "user" | "system";
                referenceSystemPrompt?: string;
                referenceTemplate?: string;
                multiTurn?: {
                    systemPrompt?: string;
                    template?: string;
                    referenceSystemPrompt?: string;
                    referenceTemplate?: string;
                };
                aspectsInOneCall?: boolean;
                aspectsTemplate?: string;
                parser?: components["schemas"]["ParserSpec"];
                samples?: number;
                /** @enum {string} */
                unparsed?: "drop" | "tie" | "zero";
                /** @enum {string} */
                aspectSet?: "summeval" | "topical-chat";
            };
            jurors?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
                label?: string;
            }[];
            /** @enum {string} */
            aggregate?: "auto" | "vote" | "mean";
        };
        /** @description Overrides of method `cascade`'s config (see `CascadeConfig`): every field optional at every depth. Objects merge key by key over the preset's config; arrays and scalars replace. */
        CascadeConfigOverrides: {
            /** @enum {string} */
            method?: "cascade";
            defaults?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            stages?: {
                label?: string;
                preset?: string;
                config?: {
                    [key: string]: unknown;
                };
                escalate?: {
                    /** @default true */
                    orderFlip?: boolean;
                    /** @default true */
                    split?: boolean;
                    /** @default false */
                    tie?: boolean;
                    /** @default true */
                    unparsed?: boolean;
                    /** @default 0 */
                    minConfidence?: number;
                };
            }[];
            runAllStages?: boolean;
            calibrated?: {
                thresholds?: (number | null)[];
                alpha?: number;
                delta?: number;
            };
        };
        /** @description Overrides of method `repeat`'s config (see `RepeatConfig`): every field optional at every depth. Objects merge key by key over the preset's config; arrays and scalars replace. */
        RepeatConfigOverrides: {
            /** @enum {string} */
            method?: "repeat";
            n?: number;
            judge?: {
                [key: string]: unknown;
            };
            /** @description Spending limits checked before every LLM call (the prompt counted with a tokenizer, the completion bounded by the call's `maxTokens`, the cost from the price table). Protocols that can stop early (SAMRE rounds and jury, DEBATE iterations, ChatEval's final turn) return their verdict with `budgetTruncated: true` and `truncation`; others end `failed` with code `budget_exceeded` before spending past it. */
            budget?: {
                maxCostUsd?: number;
                maxCalls?: number;
                maxTokens?: number;
            };
        };
        /** @description Overrides of method `rubric-steps`'s config (see `Rubric-stepsConfig`): every field optional at every depth. Objects merge key by key over the preset's config; arrays and scalars replace. */
        "Rubric-stepsConfigOverrides": {
            /** @enum {string} */
            method?: "rubric-steps";
            parseRetries?: number;
            /** @enum {string} */
            repair?: "instruct" | "resend";
            defaults?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            calibration?: {
                enabled?: boolean;
                /** @enum {string} */
                combine?: "sum-scores" | "mean-scores" | "pooled-mean" | "per-agent-majority" | "agree-or-tie";
            };
            /** @description Spending limits checked before every LLM call (the prompt counted with a tokenizer, the completion bounded by the call's `maxTokens`, the cost from the price table). Protocols that can stop early (SAMRE rounds and jury, DEBATE iterations, ChatEval's final turn) return their verdict with `budgetTruncated: true` and `truncation`; others end `failed` with code `budget_exceeded` before spending past it. */
            budget?: {
                maxCostUsd?: number;
                maxCalls?: number;
                maxTokens?: number;
            };
            writer?: {
                model?: string;
                provider?: string;
                temperature?: number;
                maxTokens?: number;
            };
            templates?: {
                pointwise?: string;
                pairwise?: string;
            };
        };
        Health: {
            /** @enum {string} */
            service: "tribunal";
            /** @enum {string} */
            status: "ok" | "unavailable";
            /** @enum {string} */
            d1: "ok" | "error";
            /**
             * @description What /v1 asks of a caller: `key` (a bearer token), `open` (nothing: local development), `closed` (no token works: the deployment sets none, or its configuration is invalid: /v1 answers 503). A request to /v1 without a token shows as much by its status.
             * @enum {string}
             */
            auth: "key" | "open" | "closed";
        };
        Error: {
            error: {
                /** @enum {string} */
                code: "invalid_json" | "unsupported_media_type" | "invalid_request" | "invalid_config" | "unknown_preset" | "unknown_method" | "task_kind_unsupported" | "byok_disabled" | "byok_not_supported" | "payload_too_large" | "unauthorized" | "not_found" | "method_not_allowed" | "idempotency_conflict" | "already_ended" | "unavailable" | "llm_not_configured" | "internal" | "forbidden" | "rate_limited" | "quota_exceeded" | "conflict" | "url_not_allowed" | "signing_secret_missing" | "limit_exceeded" | "endpoint_disabled" | "invalid_signature" | "mapping_failed" | "config_invalid" | "tier_unsupported" | "invalid_rubric" | "rubric_task_mismatch" | "rubric_unsupported" | "invalid_task" | "rubric_archived" | "agreement_below_minimum" | "rubric_steps_failed" | "rubric_steps_pending" | "auth_not_configured" | "unsupported_grader" | "labels_needed" | "calibration_pending";
                message: string;
                issues?: {
                    path: string;
                    message: string;
                }[];
                requestId?: string;
                resetAt?: string;
                labelsNeeded?: number;
            };
        };
        Evaluation: {
            id: string;
            status: components["schemas"]["EvaluationStatus"];
            method: string;
            preset: string | null;
            /** @enum {string} */
            taskKind: "pairwise" | "pointwise" | "trajectory";
            metadata: components["schemas"]["Metadata"] | null;
            progress: components["schemas"]["Progress"];
            verdict: components["schemas"]["VerdictSummary"] | null;
            usage: components["schemas"]["UsageTotals"];
            cache: components["schemas"]["EvaluationCache"];
            error: components["schemas"]["EvaluationError"] | null;
            metaId: string | null;
            batchId: string | null;
            tier: components["schemas"]["Tier"];
            flexFallback: components["schemas"]["FlexFallback"];
            rubric: components["schemas"]["RubricStamp"] | null;
            stability: components["schemas"]["Stability"] | null;
            /** @description With `certify`: the agreement and risk asked for, the coverage the calibration reached on the labelled items, and how many it calibrated on; null otherwise. */
            guarantee: components["schemas"]["Guarantee"] | null;
            /** @description With `certify`, once ended: true when the verdict is certified (its stage reached its threshold); false when it abstained or failed. Null otherwise. */
            certified: boolean | null;
            /** @description With `certify`, once ended: `answered`, `escalated` (a later cascade stage), `abstained` or `error`. */
            certification: components["schemas"]["Certification"] | null;
            /** @description The trace, span and monitor it judged, or null when it was not made of a trace. */
            source: components["schemas"]["EvaluationSource"] | null;
            createdAt: string;
            startedAt: string | null;
            finishedAt: string | null;
            links: components["schemas"]["EvaluationLinks"];
            /** @description What the request asked for holds, but not as one may expect (e.g. `tier_price_missing`: a tier billed at the standard price). Present only on the answer to the request that created the resource, and only with a warning. */
            warnings?: components["schemas"]["Warning"][];
        };
        /**
         * @description `queued` → `running` → `succeeded` | `failed` | `cancelled` (terminal: nothing changes after).
         * @enum {string}
         */
        EvaluationStatus: "queued" | "running" | "succeeded" | "failed" | "cancelled";
        /**
         * @description Up to 32 keys (1-64 chars); values are strings (≤ 1024 chars), numbers or booleans.
         * @example {
         *       "run": "nightly-42",
         *       "model": "my-model-v3",
         *       "shard": 7
         *     }
         */
        Metadata: {
            [key: string]: string | number | boolean;
        };
        Progress: {
            callsDone: number;
            callsPlanned: number;
        };
        VerdictSummary: {
            method: string;
            /** @enum {string} */
            taskKind: "pairwise" | "pointwise";
            /** @enum {string} */
            winner?: "A" | "B" | "tie";
            scores?: {
                a: number;
                b: number;
            };
            score?: number;
            scale?: {
                min: number;
                max: number;
            };
            aspects?: {
                name: string;
                score?: number;
                scale: {
                    min: number;
                    max: number;
                };
                weight: number;
                confidence: number;
                calls: number;
                costUsd?: number;
                rationale?: string;
            }[];
            overall?: number;
            spread?: number;
            label?: {
                score?: number;
                aspects?: {
                    [key: string]: number;
                };
            };
            votes: {
                agent: string;
                label: string;
                /** @enum {string} */
                order?: "AB" | "BA";
                /** @enum {string} */
                winner?: "A" | "B" | "tie";
                scores?: {
                    a: number;
                    b: number;
                };
                score?: number;
                parsed: boolean;
            }[];
            confidence: number;
            positionFlip: boolean | null;
            unparsed: {
                callId: string;
                agent: string;
                stage: string;
                reason: string;
            }[];
            calls: number;
            usage: {
                promptTokens: number;
                completionTokens: number;
                /** @default 0 */
                cachedPromptTokens?: number;
                /** @default false */
                estimated?: boolean;
                /** @default 0 */
                costUsd?: number;
                cacheSavedUsd?: number;
                /** @enum {string} */
                tier?: "standard" | "flex" | "batch";
            };
            /** @default {} */
            details?: {
                [key: string]: unknown;
            };
            firstFailingStep?: {
                step: number;
                spanId?: string;
            } | null;
            /** @enum {boolean} */
            budgetTruncated?: true;
            truncation?: {
                refused: {
                    callId: string;
                    message: string;
                }[];
                cut: {
                    [key: string]: unknown;
                };
            };
        };
        UsageTotals: {
            calls: number;
            promptTokens: number;
            completionTokens: number;
            cachedPromptTokens: number;
            estimated: boolean;
            costUsd: number;
            /** @description USD the provider's prompt cache saved: cached prompt tokens × (input − cached input price). */
            cacheSavedUsd: number;
        };
        EvaluationCache: {
            /**
             * @description The mode it ran under: the request's `cache`, or `bypass` (a judge sampling above temperature 0 without a seed).
             * @enum {string}
             */
            mode: "use" | "refresh" | "off" | "bypass";
            /** @description True when the verdict came from the cache: no LLM call, $0. */
            hit: boolean;
            /** @description On a hit: the evaluation whose verdict this is (its transcript is there). */
            from: string | null;
            /** @description On a hit: what the cached verdict had cost (USD), saved this time; else 0. */
            savedUsd: number;
        };
        EvaluationError: {
            code: string;
            message: string;
        };
        /**
         * @description `standard`: synchronous calls at the full price. `flex`: the same calls with `service_tier: "flex"`, half price, slower, sometimes refused for capacity (see `flexFallback`). `batch`: the calls go to the provider's Batch API in waves (every ready call of every item at once; the next calls when the results are in), half price, each wave within 24 h; a line the provider failed or let expire goes in the next wave, and past the retry policy's tries as a synchronous standard call.
         * @enum {string}
         */
        Tier: "standard" | "flex" | "batch";
        /**
         * @description `standard` (default): a call refused by flex for capacity (or at a model without flex) goes again at once at the standard tier and price. `wait`: it is retried at flex later, with backoff, for up to `FLEX_WAIT_MAX_SECONDS` (a day by default), then fails `flex_unavailable`; a model without flex fails it `flex_unsupported`.
         * @enum {string}
         */
        FlexFallback: "standard" | "wait";
        RubricStamp: {
            id?: string;
            version?: number;
            hash: string;
        };
        /** @description How far repeats of one item agree: `flipRate` is the share of pairs of repeats that disagree (pairwise: winners; pointwise: rounded scores), `scoreStdDev` the sample standard deviation of their scores (pairwise: A = 1, tie = 0.5, B = 0), `unstable` when flipRate > 0. */
        Stability: {
            flipRate: number | null;
            scoreStdDev: number | null;
            repeats: number;
            unstable: boolean;
        };
        Guarantee: {
            agreement: number;
            risk: number;
            coverage: number | null;
            calibrationSize: number;
        };
        Certification: {
            /** @enum {string} */
            outcome: "answered" | "escalated" | "abstained" | "error";
            stage: number | null;
        };
        Warning: {
            /**
             * @description Stable code. `tier_price_missing`: a model has no price for the tier, so its calls are billed at the standard price.
             * @enum {string}
             */
            code: "tier_price_missing";
            /** @description The request field the warning is about, e.g. `tier`. */
            field: string;
            message: string;
        };
        EvaluationAccepted: {
            id: string;
            status: components["schemas"]["EvaluationStatus"];
            links: components["schemas"]["EvaluationLinks"];
            /** @description What the request asked for holds, but not as one may expect (e.g. `tier_price_missing`: a tier billed at the standard price). Present only on the answer to the request that created the resource, and only with a warning. */
            warnings?: components["schemas"]["Warning"][];
        };
        CreateEvaluationRequest: {
            /** @description Preset id from GET /v1/methods. Its config is the base the `config` overrides merge into. */
            preset?: string;
            /** @description Overrides deep-merged over the preset's config (objects merge, arrays and scalars replace), or a full config with `method` when no preset is given. The result must satisfy MethodConfig. */
            config?: components["schemas"]["MethodConfigOverrides"];
            task: components["schemas"]["Task"];
            metadata?: components["schemas"]["Metadata"];
            budget?: components["schemas"]["Budget"];
            webhook?: components["schemas"]["OneOffWebhook"];
            cache?: components["schemas"]["CacheMode"];
            /** @description The sample or seed index of this verdict (0 to 2^31 − 1), part of the verdict cache key: verdicts of different seeds are cached apart, so a judge sampling at a temperature above 0 is cached per seed (seed 0, 1, 2 … for several samples of one item). It keys the cache only: providers get no seed (their seeds are best effort and many refuse one). */
            seed?: number;
            /**
             * @description The service tier. Absent: the tenant's default, else the providers' default, else `standard`. A tier a provider of the judge does not offer is a 400 `tier_unsupported` naming the provider.
             * @enum {string}
             */
            tier?: "standard" | "flex" | "batch";
            /**
             * @description What a flex refusal leads to (tier `flex` only; default `standard`).
             * @enum {string}
             */
            flexFallback?: "standard" | "wait";
            rubric?: components["schemas"]["RubricRef"];
            /** @description Judge each task N times (2-10): N separate runs of the judge, each its own stored LLM calls, never answered by the verdict cache. The verdict is the runs' majority (pointwise: their mean score) and `stability` reports how far they agree. A failed call fails the evaluation: an error, never a verdict. */
            repeat?: number;
            /** @description Certified mode (Trust or Escalate): calibrate the judge on the labelled items of the stored `rubric` version's annotation queues (the judge judges them once; `503 calibration_pending` while it does), then answer only where the judge's confidence reaches the calibrated threshold: the answered verdicts agree with the labels at least `agreement` of the time with probability at least 1 − `risk`. Below it, a cascade judge escalates to its next stage; after the last stage (or with a plain judge) the item abstains: no winner, `certified: false`. Pairwise only; needs `rubric` as `rb_…`, `rb_…@n` or `rb_…#tag`; too few labels is `409 labels_needed` (`error.labelsNeeded`). */
            certify?: {
                agreement: number;
                risk: number;
            };
            source?: components["schemas"]["EvaluationSourceRequest"] | null;
        };
        /**
         * @description What is judged; `kind` selects the variant. Texts are 1-100000 characters, not only whitespace, without NUL characters.
         * @example {
         *       "kind": "pairwise",
         *       "question": "What is the capital of Australia? Answer in one sentence.",
         *       "answerA": "The capital of Australia is Canberra.",
         *       "answerB": "Sydney is the capital of Australia."
         *     }
         * @example {
         *       "kind": "pointwise",
         *       "source": "The city council approved a new bike lane on Main Street on Tuesday. Construction starts in May and is expected to take six weeks.",
         *       "output": "The council approved a Main Street bike lane; building starts in May and takes about six weeks.",
         *       "aspect": {
         *         "name": "coherence",
         *         "scale": {
         *           "min": 1,
         *           "max": 5
         *         }
         *       }
         *     }
         */
        Task: {
            /** @enum {string} */
            kind: "pairwise";
            question?: string;
            messages?: ({
                /** @enum {string} */
                role: "user";
                content: string;
            } | {
                /** @enum {string} */
                role: "assistant";
                content?: string;
                answerA?: string;
                answerB?: string;
                reference?: string;
            })[];
            answerA: string;
            answerB: string;
            reference?: string;
        } | {
            /** @enum {string} */
            kind: "pointwise";
            source?: string;
            messages?: ({
                /** @enum {string} */
                role: "user";
                content: string;
            } | {
                /** @enum {string} */
                role: "assistant";
                content: string;
            })[];
            context?: string;
            output: string;
            reference?: string;
            aspect?: {
                name: string;
                description?: string;
                scale: {
                    min: number;
                    max: number;
                };
            };
            aspects?: {
                name: string;
                description?: string;
                scale: {
                    min: number;
                    max: number;
                };
                weight?: number;
            }[];
        } | {
            /** @enum {string} */
            kind: "trajectory";
            request?: string;
            messages?: ({
                /** @enum {string} */
                role: "user";
                content: string;
            } | {
                /** @enum {string} */
                role: "assistant";
                content: string;
            })[];
            steps: {
                /** @enum {string} */
                type: "llm" | "tool" | "message" | "error";
                spanId?: string;
                name?: string;
                input?: string;
                output?: string;
                error?: string;
            }[];
            finalAnswer?: string;
            aspects?: {
                name: string;
                description?: string;
                scale: {
                    min: number;
                    max: number;
                };
                weight?: number;
            }[];
        };
        /** @description Also POST this request's events (`evaluation.succeeded` | `failed` | `cancelled`) to `url`, signed (Standard Webhooks) with the tenant's signing secret: create it once with `POST /v1/webhook-signing-secret` (400 `signing_secret_missing` otherwise). */
        OneOffWebhook: {
            /**
             * @description An `https` URL of a public host. Refused with 400 `url_not_allowed` naming the rule: other schemes (plain `http` only to loopback when the deployment sets `WEBHOOK_ALLOW_LOOPBACK=true`), credentials in the URL, IP literals in private, loopback, link-local, CGNAT, multicast, reserved or cloud-metadata ranges (any IPv4 notation, IPv4-mapped IPv6 included).
             * @example https://hooks.example.com/tribunal
             */
            url: string;
        };
        /**
         * @description The verdict cache. `use` (default): an earlier verdict of this tenant for the same judge (engine version, resolved config, deployment defaults), rubric, task and seed, at most VERDICT_CACHE_TTL_DAYS old, is served at once with 0 LLM calls and $0 (`cache.hit`), else the new verdict is cached. `refresh`: judged anew, and the new verdict replaces the cached one. `off`: neither read nor written. Unset, a judge sampling at a temperature above 0 without a `seed` bypasses the cache (each run is a fresh sample); set `cache` to use it anyway.
         * @enum {string}
         */
        CacheMode: "use" | "refresh" | "off";
        /** @description What "better" means, by your own criteria: `rb_…` (the latest version), `rb_…@3` (version 3), `rb_…#prod` (the version a tag points at, resolved when the evaluation is created) or an inline rubric (hashed, not stored as a version). The evaluation records `rubric: {id, version, hash}`. An archived rubric judges only when named with its version. */
        RubricRef: string | {
            /** @enum {string} */
            kind: "pairwise" | "pointwise";
            criteria: string;
            scale?: {
                min: number;
                max: number;
                levels?: {
                    score: number;
                    text: string;
                }[];
            };
            aspects?: {
                name: string;
                criteria: string;
                scale?: {
                    min: number;
                    max: number;
                    levels?: {
                        score: number;
                        text: string;
                    }[];
                };
                /** @default 1 */
                weight?: number;
                evaluationSteps?: string;
            }[];
            evaluationSteps?: string;
            autoSteps?: boolean;
            thresholds?: {
                score?: number[];
                aspects?: {
                    [key: string]: number[];
                };
            };
            /** @description Accepted so that a rubric body can be sent as is; not used. */
            name?: string;
            /** @description Accepted (and checked) so that a rubric body can be sent as is; not run. */
            examples?: {
                task: {
                    /** @enum {string} */
                    kind: "pairwise";
                    question?: string;
                    messages?: ({
                        /** @enum {string} */
                        role: "user";
                        content: string;
                    } | {
                        /** @enum {string} */
                        role: "assistant";
                        content?: string;
                        answerA?: string;
                        answerB?: string;
                        reference?: string;
                    })[];
                    answerA: string;
                    answerB: string;
                    reference?: string;
                } | {
                    /** @enum {string} */
                    kind: "pointwise";
                    source?: string;
                    messages?: ({
                        /** @enum {string} */
                        role: "user";
                        content: string;
                    } | {
                        /** @enum {string} */
                        role: "assistant";
                        content: string;
                    })[];
                    context?: string;
                    output: string;
                    reference?: string;
                    aspect?: {
                        name: string;
                        description?: string;
                        scale: {
                            min: number;
                            max: number;
                        };
                    };
                    aspects?: {
                        name: string;
                        description?: string;
                        scale: {
                            min: number;
                            max: number;
                        };
                        weight?: number;
                    }[];
                } | {
                    /** @enum {string} */
                    kind: "trajectory";
                    request?: string;
                    messages?: ({
                        /** @enum {string} */
                        role: "user";
                        content: string;
                    } | {
                        /** @enum {string} */
                        role: "assistant";
                        content: string;
                    })[];
                    steps: {
                        /** @enum {string} */
                        type: "llm" | "tool" | "message" | "error";
                        spanId?: string;
                        name?: string;
                        input?: string;
                        output?: string;
                        error?: string;
                    }[];
                    finalAnswer?: string;
                    aspects?: {
                        name: string;
                        description?: string;
                        scale: {
                            min: number;
                            max: number;
                        };
                        weight?: number;
                    }[];
                };
                expected: ("A" | "B" | "tie") | number;
                expectedAspects?: {
                    [key: string]: number;
                };
                note?: string;
            }[];
        };
        /** @description What this evaluation judges of a trace sent to `POST /v1/traces`: it is listed with the trace (`GET /v1/traces/{traceId}`) and found by `GET /v1/evaluations?traceId=`. The trace need not have arrived yet. Null or absent: none. */
        EvaluationSourceRequest: {
            /** @description The trace judged (32 hex characters, as OTLP/JSON writes it). */
            traceId: string;
            /** @description The span judged (16 hex characters); absent when the whole trace is. */
            spanId?: string;
        };
        EvaluationList: {
            data: components["schemas"]["EvaluationListItem"][];
            /** @description Pass as `cursor` (with the same filters) for the next page; null on the last one. */
            nextCursor: string | null;
        };
        EvaluationListItem: {
            id: string;
            status: components["schemas"]["EvaluationStatus"];
            method: string;
            preset: string | null;
            /** @enum {string} */
            taskKind: "pairwise" | "pointwise" | "trajectory";
            metadata: components["schemas"]["Metadata"] | null;
            batchId: string | null;
            metaId: string | null;
            verdict: {
                /** @enum {string|null} */
                winner: "A" | "B" | "tie" | null;
                score: number | null;
                /** @description The scale `score` is on (inclusive), e.g. `{min: 1, max: 5}`; null without a score. */
                scale: {
                    min: number;
                    max: number;
                } | null;
                confidence: number;
            } | null;
            error: components["schemas"]["EvaluationError"] | null;
            /** @description The trace, span and monitor it judged, or null when it was not made of a trace. */
            source: components["schemas"]["EvaluationSource"] | null;
            createdAt: string;
            startedAt: string | null;
            finishedAt: string | null;
            links: components["schemas"]["EvaluationLinks"];
        };
        Transcript: {
            id: string;
            status: components["schemas"]["EvaluationStatus"];
            complete: boolean;
            messages: components["schemas"]["TranscriptMessage"][];
        };
        TranscriptMessage: {
            seq: number;
            callId: string;
            agent: string;
            label: string;
            stage: string;
            model: string;
            content: string;
            usage: {
                promptTokens: number;
                completionTokens: number;
                /** @default 0 */
                cachedPromptTokens?: number;
                /** @default false */
                estimated?: boolean;
                /** @default 0 */
                costUsd?: number;
                cacheSavedUsd?: number;
                /** @enum {string} */
                tier?: "standard" | "flex" | "batch";
            };
            parseError: string | null;
        };
        EvaluationTask: {
            id: string;
            task: {
                /** @enum {string} */
                kind: "pairwise";
                question?: string;
                messages?: ({
                    /** @enum {string} */
                    role: "user";
                    content: string;
                } | {
                    /** @enum {string} */
                    role: "assistant";
                    content?: string;
                    answerA?: string;
                    answerB?: string;
                    reference?: string;
                })[];
                answerA: string;
                answerB: string;
                reference?: string;
            } | {
                /** @enum {string} */
                kind: "pointwise";
                source?: string;
                messages?: ({
                    /** @enum {string} */
                    role: "user";
                    content: string;
                } | {
                    /** @enum {string} */
                    role: "assistant";
                    content: string;
                })[];
                context?: string;
                output: string;
                reference?: string;
                aspect?: {
                    name: string;
                    description?: string;
                    scale: {
                        min: number;
                        max: number;
                    };
                };
                aspects?: {
                    name: string;
                    description?: string;
                    scale: {
                        min: number;
                        max: number;
                    };
                    weight?: number;
                }[];
            } | {
                /** @enum {string} */
                kind: "trajectory";
                request?: string;
                messages?: ({
                    /** @enum {string} */
                    role: "user";
                    content: string;
                } | {
                    /** @enum {string} */
                    role: "assistant";
                    content: string;
                })[];
                steps: {
                    /** @enum {string} */
                    type: "llm" | "tool" | "message" | "error";
                    spanId?: string;
                    name?: string;
                    input?: string;
                    output?: string;
                    error?: string;
                }[];
                finalAnswer?: string;
                aspects?: {
                    name: string;
                    description?: string;
                    scale: {
                        min: number;
                        max: number;
                    };
                    weight?: number;
                }[];
            } | null;
        };
        CancelResponse: {
            id: string;
            status: components["schemas"]["EvaluationStatus"];
        };
        /**
         * @example {
         *       "reason": "superseded by a newer run"
         *     }
         */
        CancelRequest: {
            /** @description Why; stored with the cancellation. */
            reason?: string;
        };
        MethodsResponse: {
            methods: components["schemas"]["MethodInfo"][];
            presets: components["schemas"]["PresetInfo"][];
        };
        MethodInfo: {
            id: string;
            paper: string;
            taskKinds: ("pairwise" | "pointwise" | "trajectory")[];
        };
        PresetInfo: {
            id: string;
            description: string;
            paper: string;
            /** @enum {string} */
            taskKind: "pairwise" | "pointwise" | "trajectory";
            method: string;
            /** @description The full config this preset runs (defaults filled). */
            config: components["schemas"]["MethodConfig"];
        };
        MetaEvaluationAccepted: {
            id: string;
            status: components["schemas"]["MetaEvaluationStatus"];
            itemsTotal: number;
            links: {
                self: string;
            };
            /** @description What the request asked for holds, but not as one may expect (e.g. `tier_price_missing`: a tier billed at the standard price). Present only on the answer to the request that created the resource, and only with a warning. */
            warnings?: components["schemas"]["Warning"][];
        };
        /** @enum {string} */
        MetaEvaluationStatus: "running" | "succeeded" | "failed";
        CreateMetaEvaluationRequest: {
            /** @description Preset id from GET /v1/methods. Its config is the base the `config` overrides merge into. */
            preset?: string;
            /** @description Overrides deep-merged over the preset's config (objects merge, arrays and scalars replace), or a full config with `method` when no preset is given. The result must satisfy MethodConfig. */
            config?: components["schemas"]["MethodConfigOverrides"];
            items: components["schemas"]["LabelledItem"][];
            cache?: components["schemas"]["CacheMode"];
            /** @description The sample or seed index of this verdict (0 to 2^31 − 1), part of the verdict cache key: verdicts of different seeds are cached apart, so a judge sampling at a temperature above 0 is cached per seed (seed 0, 1, 2 … for several samples of one item). It keys the cache only: providers get no seed (their seeds are best effort and many refuse one). */
            seed?: number;
            /**
             * @description The service tier. Absent: the tenant's default, else the providers' default, else `standard`. A tier a provider of the judge does not offer is a 400 `tier_unsupported` naming the provider.
             * @enum {string}
             */
            tier?: "standard" | "flex" | "batch";
            /**
             * @description What a flex refusal leads to (tier `flex` only; default `standard`).
             * @enum {string}
             */
            flexFallback?: "standard" | "wait";
            /**
             * @description Times each item is judged, 1-10 (default 1). Above 1 (pairwise items), the answer gains a `reliability` report over every repeat: test-retest agreement, position bias, flip, tie / unparsed / inconclusive rates and agreement with the labels, with 95% CIs. No verdict is reused between repeats; a mock or a model sampling at a temperature answers each afresh.
             * @default 1
             */
            repeats?: number;
            rubric?: components["schemas"]["RubricRef"];
        };
        LabelledItem: {
            id: string;
            task: {
                /** @enum {string} */
                kind: "pairwise";
                question?: string;
                messages?: ({
                    /** @enum {string} */
                    role: "user";
                    content: string;
                } | {
                    /** @enum {string} */
                    role: "assistant";
                    content?: string;
                    answerA?: string;
                    answerB?: string;
                    reference?: string;
                })[];
                answerA: string;
                answerB: string;
                reference?: string;
            } | {
                /** @enum {string} */
                kind: "pointwise";
                source?: string;
                messages?: ({
                    /** @enum {string} */
                    role: "user";
                    content: string;
                } | {
                    /** @enum {string} */
                    role: "assistant";
                    content: string;
                })[];
                context?: string;
                output: string;
                reference?: string;
                aspect?: {
                    name: string;
                    description?: string;
                    scale: {
                        min: number;
                        max: number;
                    };
                };
                aspects?: {
                    name: string;
                    description?: string;
                    scale: {
                        min: number;
                        max: number;
                    };
                    weight?: number;
                }[];
            } | {
                /** @enum {string} */
                kind: "trajectory";
                request?: string;
                messages?: ({
                    /** @enum {string} */
                    role: "user";
                    content: string;
                } | {
                    /** @enum {string} */
                    role: "assistant";
                    content: string;
                })[];
                steps: {
                    /** @enum {string} */
                    type: "llm" | "tool" | "message" | "error";
                    spanId?: string;
                    name?: string;
                    input?: string;
                    output?: string;
                    error?: string;
                }[];
                finalAnswer?: string;
                aspects?: {
                    name: string;
                    description?: string;
                    scale: {
                        min: number;
                        max: number;
                    };
                    weight?: number;
                }[];
            };
            human: ("A" | "B" | "tie") | number;
            humanAspects?: {
                [key: string]: number;
            };
            group?: string;
        };
        MetaEvaluation: {
            id: string;
            status: components["schemas"]["MetaEvaluationStatus"];
            preset: string | null;
            method: string;
            tier: components["schemas"]["Tier"];
            progress: components["schemas"]["MetaProgress"];
            report: components["schemas"]["AgreementReport"];
            reportMarkdown: string | null;
            /** @description Times each item is judged. */
            repeats: number;
            reliability: components["schemas"]["ReliabilityReport"] | null;
            items: {
                itemId: string;
                evaluationId: string;
                status: components["schemas"]["EvaluationStatus"];
                /** @description The human label sent with the item: A, B or tie (pairwise), or a score (pointwise). */
                human: ("A" | "B" | "tie") | number;
                /**
                 * @description The judge's winner once the item succeeded (pairwise); null before, or pointwise.
                 * @enum {string|null}
                 */
                winner: "A" | "B" | "tie" | null;
                /** @description The judge's score once the item succeeded (pointwise); null before, or pairwise. */
                score: number | null;
                /** @description The human scores per aspect sent with the item (`humanAspects`); null without. */
                humanAspects: {
                    [key: string]: number;
                } | null;
                /** @description The judge's score per aspect once the item succeeded (a multi-aspect judge); null otherwise. */
                aspects: {
                    [key: string]: number | null;
                } | null;
            }[];
            /** @description The latest Trust or Escalate calibration of this cascade run (`POST /v1/meta-evaluations/{id}/calibrate`); null before one. */
            calibration: {
                alpha: number;
                delta: number;
                minTrusted: number;
                /** @enum {string} */
                deltaSplit: "per-stage" | "bonferroni";
                thresholds: (number | null)[];
                stages: {
                    stage: number;
                    threshold: number | null;
                    delta: number;
                    reached: number;
                    unrecorded: number;
                    tested: number;
                    trusted: number;
                    agreement: number | null;
                    disagreementBound: number | null;
                }[];
                n: number;
                covered: number;
                abstained: number;
                coverage: number | null;
                agreement: number | null;
                guarantee: string;
            } | null;
            createdAt: string;
        };
        MetaProgress: {
            total: number;
            ended: number;
            queued: number;
            running: number;
            succeeded: number;
            failed: number;
            cancelled: number;
        };
        AgreementReport: {
            /** @enum {string} */
            kind: "pairwise";
            n: number;
            nScored: number;
            nMissing: number;
            bootstrap: {
                resamples: number;
                seed: number;
                level: number;
            } | null;
            accuracy: {
                value: number | null;
                ci: {
                    lo: number;
                    hi: number;
                } | null;
            };
            kappa: {
                value: number | null;
                ci: {
                    lo: number;
                    hi: number;
                } | null;
            };
            accuracyDecided: number | null;
            accuracyTieAsB?: number | null;
            tieRate: number | null;
            flipRate: number | null;
            nFlipMeasured: number;
            humanLabels: {
                A: number;
                B: number;
                tie: number;
            };
            judgeLabels: {
                A: number;
                B: number;
                tie: number;
            };
            confusion: number[][];
        } | {
            /** @enum {string} */
            kind: "pointwise";
            n: number;
            nScored: number;
            nMissing: number;
            bootstrap: {
                resamples: number;
                seed: number;
                level: number;
            } | null;
            nGroups: number;
            item: {
                pearson: {
                    value: number | null;
                    ci: {
                        lo: number;
                        hi: number;
                    } | null;
                };
                spearman: {
                    value: number | null;
                    ci: {
                        lo: number;
                        hi: number;
                    } | null;
                };
                kendall: {
                    value: number | null;
                    ci: {
                        lo: number;
                        hi: number;
                    } | null;
                };
            };
            group: {
                pearson: {
                    value: number | null;
                    ci: {
                        lo: number;
                        hi: number;
                    } | null;
                    groupsUsed: number;
                    groupsSkipped: number;
                };
                spearman: {
                    value: number | null;
                    ci: {
                        lo: number;
                        hi: number;
                    } | null;
                    groupsUsed: number;
                    groupsSkipped: number;
                };
                kendall: {
                    value: number | null;
                    ci: {
                        lo: number;
                        hi: number;
                    } | null;
                    groupsUsed: number;
                    groupsSkipped: number;
                };
            };
            headline?: {
                label: string;
                definition: string;
                pearson: number | null;
                spearman: number | null;
                kendall: number | null;
            };
            accuracy?: {
                value: number | null;
                ci: {
                    lo: number;
                    hi: number;
                } | null;
            };
            aspects?: {
                aspect: string;
                n: number;
                nScored: number;
                nMissing: number;
                bootstrap: {
                    resamples: number;
                    seed: number;
                    level: number;
                } | null;
                nGroups: number;
                item: {
                    pearson: {
                        value: number | null;
                        ci: {
                            lo: number;
                            hi: number;
                        } | null;
                    };
                    spearman: {
                        value: number | null;
                        ci: {
                            lo: number;
                            hi: number;
                        } | null;
                    };
                    kendall: {
                        value: number | null;
                        ci: {
                            lo: number;
                            hi: number;
                        } | null;
                    };
                };
                group: {
                    pearson: {
                        value: number | null;
                        ci: {
                            lo: number;
                            hi: number;
                        } | null;
                        groupsUsed: number;
                        groupsSkipped: number;
                    };
                    spearman: {
                        value: number | null;
                        ci: {
                            lo: number;
                            hi: number;
                        } | null;
                        groupsUsed: number;
                        groupsSkipped: number;
                    };
                    kendall: {
                        value: number | null;
                        ci: {
                            lo: number;
                            hi: number;
                        } | null;
                        groupsUsed: number;
                        groupsSkipped: number;
                    };
                };
            }[];
        } | null;
        /** @description The judge's reliability over every repeat (`repeats` > 1), once every repeat ended: test-retest agreement (all repeats agree; Krippendorff's α), position bias (how often the answer shown first wins), flip rate, tie / unparsed / inconclusive / failed rates, and agreement of each repeat with the human label, each with a bootstrap 95% CI over items. */
        ReliabilityReport: {
            items: number;
            repeats: number;
            repeatsPerItem: {
                min: number;
                max: number;
            };
            rates: {
                A: number | null;
                B: number | null;
                tie: number | null;
                unparsed: number | null;
                inconclusive: number | null;
                failed: number | null;
            };
            testRetest: {
                itemsCompared: number;
                allAgree: {
                    value: number | null;
                    ci: {
                        lo: number;
                        hi: number;
                    } | null;
                };
                pairAgreement: {
                    value: number | null;
                    ci: {
                        lo: number;
                        hi: number;
                    } | null;
                };
                alpha: {
                    value: number | null;
                    ci: {
                        lo: number;
                        hi: number;
                    } | null;
                };
            };
            positionBias: {
                judgements: number;
                aWinsWhenFirst: number | null;
                aWinsWhenSecond: number | null;
                firstShownWins: {
                    value: number | null;
                    ci: {
                        lo: number;
                        hi: number;
                    } | null;
                };
            };
            flips: {
                measured: number;
                rate: {
                    value: number | null;
                    ci: {
                        lo: number;
                        hi: number;
                    } | null;
                };
            };
            labelled: {
                items: number;
                scored: number;
                perRepeatAccuracy: {
                    value: number | null;
                    ci: {
                        lo: number;
                        hi: number;
                    } | null;
                };
                majorityAccuracy: {
                    value: number | null;
                    ci: {
                        lo: number;
                        hi: number;
                    } | null;
                };
                majorityKappa: {
                    value: number | null;
                    ci: {
                        lo: number;
                        hi: number;
                    } | null;
                };
            } | null;
            bootstrap: {
                resamples: number;
                seed: number;
                level: number;
            };
        };
        CalibrateResult: {
            calibration: components["schemas"]["CascadeCalibration"];
            /** @description The run's cascade config with `calibrated.thresholds` set (and `runAllStages` off): pass it as `config` to judge with the calibrated cascade, which abstains (no winner, `details.cascade.abstained`) on items below every threshold. */
            config: {
                [key: string]: unknown;
            };
        };
        /** @description Trust or Escalate (Jung et al. 2024) on this labelled cascade run: per stage its confidence threshold (null: the stage trusts nothing) by fixed-sequence testing, the items each stage trusts and their agreement with the labels, the coverage (items some stage trusts) and the agreement over them, and the `guarantee` in words. */
        CascadeCalibration: {
            alpha: number;
            delta: number;
            minTrusted: number;
            /** @enum {string} */
            deltaSplit: "per-stage" | "bonferroni";
            thresholds: (number | null)[];
            stages: {
                stage: number;
                threshold: number | null;
                delta: number;
                reached: number;
                unrecorded: number;
                tested: number;
                trusted: number;
                agreement: number | null;
                disagreementBound: number | null;
            }[];
            n: number;
            covered: number;
            abstained: number;
            coverage: number | null;
            agreement: number | null;
            guarantee: string;
        };
        CalibrateRequest: {
            /**
             * @description Tolerated disagreement with the human labels: the target agreement is 1 − alpha. In (0, 1); default 0.2.
             * @default 0.2
             */
            alpha?: number;
            /**
             * @description Risk that the guarantee fails over the calibration draw. In (0, 1); default 0.1.
             * @default 0.1
             */
            delta?: number;
            /**
             * @description Fewest items a tested threshold must trust (30, as the authors’ code); fewer cannot pass the test.
             * @default 30
             */
            minTrusted?: number;
            /**
             * @description `per-stage` (the paper): δ at every stage; `bonferroni`: δ/k per stage, so the whole cascade holds at 1 − δ.
             * @default per-stage
             * @enum {string}
             */
            deltaSplit?: "per-stage" | "bonferroni";
        };
        AnnotationQueue: {
            id: string;
            name: string;
            rubric: {
                id: string;
                version: number;
            };
            /** @enum {string} */
            kind: "pairwise" | "pointwise";
            labelsPerItem: number;
            blind: boolean;
            progress: components["schemas"]["AnnotationQueueProgress"];
            /** @description ISO 8601 UTC. */
            createdAt: string;
            /** @description Relative URLs: the queue, the caller’s next item, the export (`?format=csv|jsonl`), the import. */
            links: {
                self: string;
                next: string;
                export: string;
                import: string;
            };
        };
        AnnotationQueueProgress: {
            total: number;
            pending: number;
            labelled: number;
            needsAdjudication: number;
            adjudicated: number;
        };
        CreateAnnotationQueueRequest: {
            /** @description The queue's name, 1-200 characters. */
            name: string;
            /** @description The rubric the items are labelled by: `rb_…`, `rb_…@n` or `rb_…#tag`, fixed to its version at creation. */
            rubric: string;
            items?: {
                /** @description Your id for the item, unique in the queue, 1-256 characters. */
                id: string;
                task: {
                    /** @enum {string} */
                    kind: "pairwise";
                    question?: string;
                    messages?: ({
                        /** @enum {string} */
                        role: "user";
                        content: string;
                    } | {
                        /** @enum {string} */
                        role: "assistant";
                        content?: string;
                        answerA?: string;
                        answerB?: string;
                        reference?: string;
                    })[];
                    answerA: string;
                    answerB: string;
                    reference?: string;
                } | {
                    /** @enum {string} */
                    kind: "pointwise";
                    source?: string;
                    messages?: ({
                        /** @enum {string} */
                        role: "user";
                        content: string;
                    } | {
                        /** @enum {string} */
                        role: "assistant";
                        content: string;
                    })[];
                    context?: string;
                    output: string;
                    reference?: string;
                    aspect?: {
                        name: string;
                        description?: string;
                        scale: {
                            min: number;
                            max: number;
                        };
                    };
                    aspects?: {
                        name: string;
                        description?: string;
                        scale: {
                            min: number;
                            max: number;
                        };
                        weight?: number;
                    }[];
                } | {
                    /** @enum {string} */
                    kind: "trajectory";
                    request?: string;
                    messages?: ({
                        /** @enum {string} */
                        role: "user";
                        content: string;
                    } | {
                        /** @enum {string} */
                        role: "assistant";
                        content: string;
                    })[];
                    steps: {
                        /** @enum {string} */
                        type: "llm" | "tool" | "message" | "error";
                        spanId?: string;
                        name?: string;
                        input?: string;
                        output?: string;
                        error?: string;
                    }[];
                    finalAnswer?: string;
                    aspects?: {
                        name: string;
                        description?: string;
                        scale: {
                            min: number;
                            max: number;
                        };
                        weight?: number;
                    }[];
                };
            }[];
            fromEvaluations?: {
                /** @description Succeeded evaluations of the queue's task kind, newest first; the judge's verdict comes along (a `judge` label, hidden by `blind`) when it answered the rubric's question: judged by the queue's rubric version, or by no rubric on an aspect described by the rubric's criteria word for word. */
                filter: {
                    /** @description Only the items of this batch (`ba_…`, or a meta-evaluation `me_…` or comparison `cp_…`). */
                    batch?: string;
                    /** @description Only evaluations judged by this rubric (any version), or `rb_…@n` by that version. */
                    rubric?: string;
                    /** @description Only evaluations whose metadata has every one of these entries (compared as text). */
                    metadata?: {
                        [key: string]: string;
                    };
                    /**
                     * @description Most evaluations taken, newest first, 1-1000 (default 100).
                     * @default 100
                     */
                    limit?: number;
                };
            };
            /**
             * @description Labels each item waits for, from different annotators, 1-5 (default 1).
             * @default 1
             */
            labelsPerItem?: number;
            /**
             * @description True: `…/next` never shows the judge's verdict, so it cannot sway the annotator. Default false.
             * @default false
             */
            blind?: boolean;
        };
        AnnotationQueueList: {
            data: components["schemas"]["AnnotationQueue"][];
            /** @description Pass as `cursor` for the next page; null on the last one. */
            nextCursor: string | null;
        };
        AnnotationNextItem: {
            queueId: string;
            itemId: string;
            /** @description Who the item is for: the `x-annotator` header, else the key id. */
            annotator: string;
            task: {
                /** @enum {string} */
                kind: "pairwise";
                question?: string;
                messages?: ({
                    /** @enum {string} */
                    role: "user";
                    content: string;
                } | {
                    /** @enum {string} */
                    role: "assistant";
                    content?: string;
                    answerA?: string;
                    answerB?: string;
                    reference?: string;
                })[];
                answerA: string;
                answerB: string;
                reference?: string;
            } | {
                /** @enum {string} */
                kind: "pointwise";
                source?: string;
                messages?: ({
                    /** @enum {string} */
                    role: "user";
                    content: string;
                } | {
                    /** @enum {string} */
                    role: "assistant";
                    content: string;
                })[];
                context?: string;
                output: string;
                reference?: string;
                aspect?: {
                    name: string;
                    description?: string;
                    scale: {
                        min: number;
                        max: number;
                    };
                };
                aspects?: {
                    name: string;
                    description?: string;
                    scale: {
                        min: number;
                        max: number;
                    };
                    weight?: number;
                }[];
            } | {
                /** @enum {string} */
                kind: "trajectory";
                request?: string;
                messages?: ({
                    /** @enum {string} */
                    role: "user";
                    content: string;
                } | {
                    /** @enum {string} */
                    role: "assistant";
                    content: string;
                })[];
                steps: {
                    /** @enum {string} */
                    type: "llm" | "tool" | "message" | "error";
                    spanId?: string;
                    name?: string;
                    input?: string;
                    output?: string;
                    error?: string;
                }[];
                finalAnswer?: string;
                aspects?: {
                    name: string;
                    description?: string;
                    scale: {
                        min: number;
                        max: number;
                    };
                    weight?: number;
                }[];
            };
            /** @description What a label must look like: the kind, and pointwise the scale and the aspects with theirs. */
            rubric: {
                id: string;
                version: number;
                /** @enum {string} */
                kind: "pairwise" | "pointwise";
                criteria: string;
                scale: {
                    min: number;
                    max: number;
                } | null;
                aspects: {
                    name: string;
                    scale: {
                        min: number;
                        max: number;
                    };
                }[] | null;
            };
            /**
             * @description The judge's verdict on the item; null in a blind queue or when none is known.
             * @example {
             *       "winner": "A"
             *     }
             * @example {
             *       "score": 4
             *     }
             */
            judge: {
                /**
                 * @description Pairwise: `A`, `B` or `tie`.
                 * @enum {string}
                 */
                winner?: "A" | "B" | "tie";
                /** @description Pointwise: the overall score, on the rubric's scale. */
                score?: number;
                /** @description Pointwise with aspects: the score per aspect, by the rubric's aspect names, each on its scale. */
                aspects?: {
                    [key: string]: number;
                };
            } | null;
            /** @description Items still waiting for this annotator, this one included. */
            remaining: number;
            /** @description Where to POST the label. */
            links: {
                labels: string;
            };
        };
        AnnotationItem: {
            queueId: string;
            itemId: string;
            status: components["schemas"]["AnnotationItemStatus"];
            /**
             * @description How the label was reached; null while pending or disagreed on.
             * @enum {string|null}
             */
            resolution: "single" | "unanimous" | "majority" | "mean" | "adjudicated" | null;
            /**
             * @description The agreed or adjudicated label; null while pending or disagreed on.
             * @example {
             *       "winner": "A"
             *     }
             * @example {
             *       "score": 4
             *     }
             */
            label: {
                /**
                 * @description Pairwise: `A`, `B` or `tie`.
                 * @enum {string}
                 */
                winner?: "A" | "B" | "tie";
                /** @description Pointwise: the overall score, on the rubric's scale. */
                score?: number;
                /** @description Pointwise with aspects: the score per aspect, by the rubric's aspect names, each on its scale. */
                aspects?: {
                    [key: string]: number;
                };
            } | null;
            labels: components["schemas"]["StoredLabel"][];
        };
        /**
         * @description `pending`: fewer labels than `labelsPerItem`; `labelled`: the labels agree (see `resolution`); `needs_adjudication`: they do not, until an adjudicator's label (`adjudicate: true`) settles it (`adjudicated`).
         * @enum {string}
         */
        AnnotationItemStatus: "pending" | "labelled" | "needs_adjudication" | "adjudicated";
        StoredLabel: {
            annotator: string;
            /** @enum {string} */
            role: "annotator" | "adjudicator";
            provenance: components["schemas"]["LabelProvenance"];
            label: components["schemas"]["Label"];
            comment: string | null;
            /** @description ISO 8601 UTC. */
            createdAt: string;
            /** @description ISO 8601 UTC. */
            updatedAt: string;
        };
        /**
         * @description Where a label comes from: `human` (labelled through the API or the viewer), `judge` (a judge verdict recorded as a label), `imported` (`POST …/import`).
         * @enum {string}
         */
        LabelProvenance: "human" | "judge" | "imported";
        /**
         * @example {
         *       "winner": "A"
         *     }
         * @example {
         *       "score": 4
         *     }
         */
        Label: {
            /**
             * @description Pairwise: `A`, `B` or `tie`.
             * @enum {string}
             */
            winner?: "A" | "B" | "tie";
            /** @description Pointwise: the overall score, on the rubric's scale. */
            score?: number;
            /** @description Pointwise with aspects: the score per aspect, by the rubric's aspect names, each on its scale. */
            aspects?: {
                [key: string]: number;
            };
        };
        /**
         * @example {
         *       "label": {
         *         "winner": "A"
         *       },
         *       "comment": "B invents a refund"
         *     }
         */
        PostLabelRequest: {
            label: components["schemas"]["Label"];
            /** @description Who labels; default the `x-annotator` header, else the key id. Both given and different is a 400. */
            annotator?: string;
            /** @description Why, 1-2,000 characters. */
            comment?: string;
            /**
             * @description True: this is the adjudicator's label; it settles the item whatever the annotators said. Default false.
             * @default false
             */
            adjudicate?: boolean;
        };
        AnnotationExportLine: {
            queueId: string;
            itemId: string;
            status: components["schemas"]["AnnotationItemStatus"];
            /**
             * @description How the label was reached; null while pending or disagreed on.
             * @enum {string|null}
             */
            resolution: "single" | "unanimous" | "majority" | "mean" | "adjudicated" | null;
            /**
             * @description The agreed or adjudicated label; null while pending or disagreed on.
             * @example {
             *       "winner": "A"
             *     }
             * @example {
             *       "score": 4
             *     }
             */
            label: {
                /**
                 * @description Pairwise: `A`, `B` or `tie`.
                 * @enum {string}
                 */
                winner?: "A" | "B" | "tie";
                /** @description Pointwise: the overall score, on the rubric's scale. */
                score?: number;
                /** @description Pointwise with aspects: the score per aspect, by the rubric's aspect names, each on its scale. */
                aspects?: {
                    [key: string]: number;
                };
            } | null;
            labels: components["schemas"]["StoredLabel"][];
            task: {
                /** @enum {string} */
                kind: "pairwise";
                question?: string;
                messages?: ({
                    /** @enum {string} */
                    role: "user";
                    content: string;
                } | {
                    /** @enum {string} */
                    role: "assistant";
                    content?: string;
                    answerA?: string;
                    answerB?: string;
                    reference?: string;
                })[];
                answerA: string;
                answerB: string;
                reference?: string;
            } | {
                /** @enum {string} */
                kind: "pointwise";
                source?: string;
                messages?: ({
                    /** @enum {string} */
                    role: "user";
                    content: string;
                } | {
                    /** @enum {string} */
                    role: "assistant";
                    content: string;
                })[];
                context?: string;
                output: string;
                reference?: string;
                aspect?: {
                    name: string;
                    description?: string;
                    scale: {
                        min: number;
                        max: number;
                    };
                };
                aspects?: {
                    name: string;
                    description?: string;
                    scale: {
                        min: number;
                        max: number;
                    };
                    weight?: number;
                }[];
            } | {
                /** @enum {string} */
                kind: "trajectory";
                request?: string;
                messages?: ({
                    /** @enum {string} */
                    role: "user";
                    content: string;
                } | {
                    /** @enum {string} */
                    role: "assistant";
                    content: string;
                })[];
                steps: {
                    /** @enum {string} */
                    type: "llm" | "tool" | "message" | "error";
                    spanId?: string;
                    name?: string;
                    input?: string;
                    output?: string;
                    error?: string;
                }[];
                finalAnswer?: string;
                aspects?: {
                    name: string;
                    description?: string;
                    scale: {
                        min: number;
                        max: number;
                    };
                    weight?: number;
                }[];
            };
            evaluationId: string | null;
        };
        AnnotationImportResult: {
            /** @description Labels written (provenance `imported`). */
            imported: number;
            queue: components["schemas"]["AnnotationQueue"];
        };
        RubricCheck: {
            metaEvaluationId: string;
            /** @enum {string} */
            status: "running" | "completed";
            preset: string | null;
            config: {
                [key: string]: unknown;
            } | null;
            report: {
                /** @enum {string} */
                kind: "pairwise";
                n: number;
                nScored: number;
                nMissing: number;
                bootstrap: {
                    resamples: number;
                    seed: number;
                    level: number;
                } | null;
                accuracy: {
                    value: number | null;
                    ci: {
                        lo: number;
                        hi: number;
                    } | null;
                };
                kappa: {
                    value: number | null;
                    ci: {
                        lo: number;
                        hi: number;
                    } | null;
                };
                accuracyDecided: number | null;
                accuracyTieAsB?: number | null;
                tieRate: number | null;
                flipRate: number | null;
                nFlipMeasured: number;
                humanLabels: {
                    A: number;
                    B: number;
                    tie: number;
                };
                judgeLabels: {
                    A: number;
                    B: number;
                    tie: number;
                };
                confusion: number[][];
            } | {
                /** @enum {string} */
                kind: "pointwise";
                n: number;
                nScored: number;
                nMissing: number;
                bootstrap: {
                    resamples: number;
                    seed: number;
                    level: number;
                } | null;
                nGroups: number;
                item: {
                    pearson: {
                        value: number | null;
                        ci: {
                            lo: number;
                            hi: number;
                        } | null;
                    };
                    spearman: {
                        value: number | null;
                        ci: {
                            lo: number;
                            hi: number;
                        } | null;
                    };
                    kendall: {
                        value: number | null;
                        ci: {
                            lo: number;
                            hi: number;
                        } | null;
                    };
                };
                group: {
                    pearson: {
                        value: number | null;
                        ci: {
                            lo: number;
                            hi: number;
                        } | null;
                        groupsUsed: number;
                        groupsSkipped: number;
                    };
                    spearman: {
                        value: number | null;
                        ci: {
                            lo: number;
                            hi: number;
                        } | null;
                        groupsUsed: number;
                        groupsSkipped: number;
                    };
                    kendall: {
                        value: number | null;
                        ci: {
                            lo: number;
                            hi: number;
                        } | null;
                        groupsUsed: number;
                        groupsSkipped: number;
                    };
                };
                headline?: {
                    label: string;
                    definition: string;
                    pearson: number | null;
                    spearman: number | null;
                    kendall: number | null;
                };
                accuracy?: {
                    value: number | null;
                    ci: {
                        lo: number;
                        hi: number;
                    } | null;
                };
                aspects?: {
                    aspect: string;
                    n: number;
                    nScored: number;
                    nMissing: number;
                    bootstrap: {
                        resamples: number;
                        seed: number;
                        level: number;
                    } | null;
                    nGroups: number;
                    item: {
                        pearson: {
                            value: number | null;
                            ci: {
                                lo: number;
                                hi: number;
                            } | null;
                        };
                        spearman: {
                            value: number | null;
                            ci: {
                                lo: number;
                                hi: number;
                            } | null;
                        };
                        kendall: {
                            value: number | null;
                            ci: {
                                lo: number;
                                hi: number;
                            } | null;
                        };
                    };
                    group: {
                        pearson: {
                            value: number | null;
                            ci: {
                                lo: number;
                                hi: number;
                            } | null;
                            groupsUsed: number;
                            groupsSkipped: number;
                        };
                        spearman: {
                            value: number | null;
                            ci: {
                                lo: number;
                                hi: number;
                            } | null;
                            groupsUsed: number;
                            groupsSkipped: number;
                        };
                        kendall: {
                            value: number | null;
                            ci: {
                                lo: number;
                                hi: number;
                            } | null;
                            groupsUsed: number;
                            groupsSkipped: number;
                        };
                    };
                }[];
            } | null;
            /** @description ISO 8601 UTC. */
            completedAt: string | null;
        };
        /**
         * @example {
         *       "preset": "rubric-judge"
         *     }
         */
        RubricCheckRequest: {
            /** @description Preset id from GET /v1/methods. */
            preset?: string;
            /** @description Config overrides over the preset (or a full config with `method`), as on POST /v1/evaluations. */
            config?: {
                [key: string]: unknown;
            };
            /** @description Labelled examples to check against; default: the version's own golden examples. */
            examples?: {
                task: {
                    /** @enum {string} */
                    kind: "pairwise";
                    question?: string;
                    messages?: ({
                        /** @enum {string} */
                        role: "user";
                        content: string;
                    } | {
                        /** @enum {string} */
                        role: "assistant";
                        content?: string;
                        answerA?: string;
                        answerB?: string;
                        reference?: string;
                    })[];
                    answerA: string;
                    answerB: string;
                    reference?: string;
                } | {
                    /** @enum {string} */
                    kind: "pointwise";
                    source?: string;
                    messages?: ({
                        /** @enum {string} */
                        role: "user";
                        content: string;
                    } | {
                        /** @enum {string} */
                        role: "assistant";
                        content: string;
                    })[];
                    context?: string;
                    output: string;
                    reference?: string;
                    aspect?: {
                        name: string;
                        description?: string;
                        scale: {
                            min: number;
                            max: number;
                        };
                    };
                    aspects?: {
                        name: string;
                        description?: string;
                        scale: {
                            min: number;
                            max: number;
                        };
                        weight?: number;
                    }[];
                } | {
                    /** @enum {string} */
                    kind: "trajectory";
                    request?: string;
                    messages?: ({
                        /** @enum {string} */
                        role: "user";
                        content: string;
                    } | {
                        /** @enum {string} */
                        role: "assistant";
                        content: string;
                    })[];
                    steps: {
                        /** @enum {string} */
                        type: "llm" | "tool" | "message" | "error";
                        spanId?: string;
                        name?: string;
                        input?: string;
                        output?: string;
                        error?: string;
                    }[];
                    finalAnswer?: string;
                    aspects?: {
                        name: string;
                        description?: string;
                        scale: {
                            min: number;
                            max: number;
                        };
                        weight?: number;
                    }[];
                };
                expected: ("A" | "B" | "tie") | number;
                expectedAspects?: {
                    [key: string]: number;
                };
                note?: string;
            }[];
        };
        RubricAgreement: {
            rubric: {
                id: string;
                version: number;
            };
            /**
             * @description `running` (answered 202) while the judge runs; `completed` (200) with the figures. Read `links.self` again.
             * @enum {string}
             */
            status: "running" | "completed";
            /** @description The version's golden-check judge, else `fastchat-pair` (pairwise) or `rubric-judge` (pointwise). */
            judge: {
                preset: string | null;
                config: {
                    [key: string]: unknown;
                } | null;
            };
            /** @description The run that judged the labelled items (`GET /v1/meta-evaluations/{id}`). */
            metaEvaluationId: string;
            /** @description Labelled items judged (the first 500 of the version’s queues). */
            n: number;
            /** @description Items with a judge answer; once completed. */
            nScored?: number;
            pairwise: {
                /** @description Cohen's κ over A/B/tie. */
                kappa: {
                    value: number | null;
                    /** @description Bootstrap 95% interval over items; null when it cannot be computed. */
                    interval: {
                        lo: number;
                        hi: number;
                    } | null;
                };
                accuracy: {
                    value: number | null;
                    /** @description Bootstrap 95% interval over items; null when it cannot be computed. */
                    interval: {
                        lo: number;
                        hi: number;
                    } | null;
                };
                /** @description Human (rows) × judge (columns) counts in A, B, tie order. */
                confusion: number[][];
            } | null;
            pointwise: {
                /** @description Pearson. */
                r: {
                    value: number | null;
                    /** @description Bootstrap 95% interval over items; null when it cannot be computed. */
                    interval: {
                        lo: number;
                        hi: number;
                    } | null;
                };
                /** @description Spearman. */
                rho: {
                    value: number | null;
                    /** @description Bootstrap 95% interval over items; null when it cannot be computed. */
                    interval: {
                        lo: number;
                        hi: number;
                    } | null;
                };
                /** @description Kendall τ-b. */
                tau: {
                    value: number | null;
                    /** @description Bootstrap 95% interval over items; null when it cannot be computed. */
                    interval: {
                        lo: number;
                        hi: number;
                    } | null;
                };
            } | null;
            /** @description Items where the judge differs from the label (pointwise: by a point or more), each linked. */
            disagreements: {
                queueId: string;
                itemId: string;
                human: ("A" | "B" | "tie") | number;
                judge: ("A" | "B" | "tie") | number | null;
                links: {
                    evaluation: string;
                    item: string;
                };
            }[];
            links: {
                self: string;
                metaEvaluation: string;
            };
        };
        Alignment: {
            id: string;
            /**
             * @description `running` (read `links.self` again), then `succeeded` with `version` and `heldOut`, or `failed` with `error`.
             * @enum {string}
             */
            status: "running" | "succeeded" | "failed";
            /**
             * @description Where a running job is.
             * @enum {string}
             */
            step: "judging_base" | "learning" | "validating" | "judging_held_out" | "ended";
            rubric: {
                id: string;
                baseVersion: number;
            };
            queue: string;
            method: components["schemas"]["AlignMethod"];
            /**
             * @description The method the version was made with (`auto`: the best on validation).
             * @enum {string|null}
             */
            chosenMethod: "few-shot" | "instructions" | "thresholds" | "auto" | null;
            holdout: number;
            items: {
                labelled: number;
                /** @description Items the methods learn from (`auto`: train and validation). */
                learn: number;
                /** @description `auto` only: items the methods are compared on. */
                validation: number;
                heldOut: number;
            };
            /** @description `auto`: each method tried, with its κ on the validation items (a pointwise rubric's one, `thresholds`: the base version's scores there read through the learned cut-offs; null when no score has a κ). */
            candidates: {
                method: components["schemas"]["AlignMethod"];
                kappa: number | null;
            }[];
            /** @description The rubric version this job created. */
            version: number | null;
            heldOut: components["schemas"]["AlignHeldOut"] | null;
            tag: {
                name: string;
                /**
                 * @description `align`: the job moved it (the gain's interval lies above 0); `user`: it points at the new version, moved there by a user; null: it did not move.
                 * @enum {string|null}
                 */
                moved: "align" | "user" | null;
                /** @description Why, in words. */
                reason: string;
            } | null;
            error: {
                code: string;
                message: string;
            } | null;
            /** @description ISO 8601 UTC. */
            createdAt: string;
            /** @description ISO 8601 UTC. */
            updatedAt: string;
            links: {
                self: string;
                rubric: string;
                version: string | null;
                /** @description The meta-evaluations that judged for this job. */
                runs: string[];
            };
        };
        /**
         * @description `few-shot`: the judge's most confident mistakes on the learning items become examples in the criteria; `instructions`: the LLM writes rules into the criteria from the disagreements (both pairwise); `thresholds` (pointwise): cut-offs on the judge's score and each aspect's that put the most learning items in their human's band, stored as the version's `thresholds` (its verdicts carry `label`); `auto`: tries the methods that fit the rubric and keeps the best on a validation split of the learning items (never on the held-out ones).
         * @enum {string}
         */
        AlignMethod: "few-shot" | "instructions" | "thresholds" | "auto";
        AlignHeldOut: {
            /**
             * @description Cohen's κ against the human labels: pairwise over A/B/tie; pointwise over the scale's whole scores (the judge's bands by the version's thresholds, else its score at the nearest whole score), the mean over the score and the aspects the humans labelled.
             * @enum {string}
             */
            metric: "kappa";
            /** @description Held-out items. */
            n: number;
            /** @description The base version. */
            base: {
                value: number | null;
                /** @description Bootstrap 95% interval over the held-out items; null when it cannot be computed. */
                interval: {
                    lo: number;
                    hi: number;
                } | null;
            };
            /** @description The new version. */
            aligned: {
                value: number | null;
                /** @description Bootstrap 95% interval over the held-out items; null when it cannot be computed. */
                interval: {
                    lo: number;
                    hi: number;
                } | null;
            };
            /** @description aligned − base, its interval paired (the same resampled items for both). */
            gain: {
                value: number | null;
                /** @description Bootstrap 95% interval over the held-out items; null when it cannot be computed. */
                interval: {
                    lo: number;
                    hi: number;
                } | null;
            };
        };
        /**
         * @example {
         *       "queue": "aq_0123456789abcdef0123456789abcdef",
         *       "method": "few-shot"
         *     }
         */
        AlignRequest: {
            /** @description The annotation queue whose labels the rubric learns from (a queue over this rubric's version). */
            queue: string;
            /**
             * @description How to align; default `auto`.
             * @default auto
             * @enum {string}
             */
            method?: "few-shot" | "instructions" | "thresholds" | "auto";
            /**
             * @description Share of the labelled items held out (0.1-0.5, default 0.3): judged by both versions, learned from by neither.
             * @default 0.3
             */
            holdout?: number;
            /**
             * @description The tag that moves to the new version when the held-out gain's interval lies above 0 (default `prod`).
             * @default prod
             */
            tag?: string;
            /** @description The judge: a preset id from GET /v1/methods. */
            preset?: string;
            /** @description Config overrides over the preset, as on POST /v1/evaluations. Default judge: the version's golden-check judge, else `fastchat-pair`. */
            config?: {
                [key: string]: unknown;
            };
        };
        RubricCreated: {
            /** @description The rubric's id. */
            id: string;
            version: number;
            ref: string;
            name: string;
            /** @enum {string} */
            kind: "pairwise" | "pointwise";
            criteria: string;
            scale?: {
                min: number;
                max: number;
                levels?: {
                    score: number;
                    text: string;
                }[];
            };
            aspects?: {
                name: string;
                criteria: string;
                scale?: {
                    min: number;
                    max: number;
                    levels?: {
                        score: number;
                        text: string;
                    }[];
                };
                /** @default 1 */
                weight?: number;
                evaluationSteps?: string;
            }[];
            evaluationSteps?: string;
            autoSteps?: boolean;
            thresholds?: {
                score?: number[];
                aspects?: {
                    [key: string]: number[];
                };
            };
            examples: {
                task: {
                    /** @enum {string} */
                    kind: "pairwise";
                    question?: string;
                    messages?: ({
                        /** @enum {string} */
                        role: "user";
                        content: string;
                    } | {
                        /** @enum {string} */
                        role: "assistant";
                        content?: string;
                        answerA?: string;
                        answerB?: string;
                        reference?: string;
                    })[];
                    answerA: string;
                    answerB: string;
                    reference?: string;
                } | {
                    /** @enum {string} */
                    kind: "pointwise";
                    source?: string;
                    messages?: ({
                        /** @enum {string} */
                        role: "user";
                        content: string;
                    } | {
                        /** @enum {string} */
                        role: "assistant";
                        content: string;
                    })[];
                    context?: string;
                    output: string;
                    reference?: string;
                    aspect?: {
                        name: string;
                        description?: string;
                        scale: {
                            min: number;
                            max: number;
                        };
                    };
                    aspects?: {
                        name: string;
                        description?: string;
                        scale: {
                            min: number;
                            max: number;
                        };
                        weight?: number;
                    }[];
                } | {
                    /** @enum {string} */
                    kind: "trajectory";
                    request?: string;
                    messages?: ({
                        /** @enum {string} */
                        role: "user";
                        content: string;
                    } | {
                        /** @enum {string} */
                        role: "assistant";
                        content: string;
                    })[];
                    steps: {
                        /** @enum {string} */
                        type: "llm" | "tool" | "message" | "error";
                        spanId?: string;
                        name?: string;
                        input?: string;
                        output?: string;
                        error?: string;
                    }[];
                    finalAnswer?: string;
                    aspects?: {
                        name: string;
                        description?: string;
                        scale: {
                            min: number;
                            max: number;
                        };
                        weight?: number;
                    }[];
                };
                expected: ("A" | "B" | "tie") | number;
                expectedAspects?: {
                    [key: string]: number;
                };
                note?: string;
            }[];
            hash: string;
            tags: string[];
            /** @description G-Eval's auto-CoT steps written for this version (generated, once, the first time a judge whose templates carry steps used it); null while none were: steps given with the version are `evaluationSteps` above. */
            steps: components["schemas"]["RubricSteps"] | null;
            check: components["schemas"]["RubricCheck"] | null;
            /** @description ISO 8601 UTC. */
            createdAt: string;
            links: components["schemas"]["RubricLinks"];
        };
        RubricSteps: {
            /** @enum {string} */
            status: "pending" | "written" | "failed";
            evaluationId: string;
            evaluationSteps: string | null;
            aspects: {
                name: string;
                evaluationSteps: string | null;
            }[] | null;
            hash: string | null;
        };
        RubricLinks: {
            self: string;
            versions: string;
        };
        /**
         * @example {
         *       "name": "Support reply quality",
         *       "kind": "pointwise",
         *       "criteria": "A reply from our support team to a customer.",
         *       "scale": {
         *         "min": 1,
         *         "max": 5
         *       },
         *       "aspects": [
         *         {
         *           "name": "policy",
         *           "criteria": "States the refund policy correctly for this case.",
         *           "weight": 2
         *         },
         *         {
         *           "name": "tone",
         *           "criteria": "Is polite and calm, never blames the customer."
         *         },
         *         {
         *           "name": "next step",
         *           "criteria": "Ends with one clear next step for the customer."
         *         }
         *       ],
         *       "examples": [
         *         {
         *           "task": {
         *             "kind": "pointwise",
         *             "source": "My order arrived broken. What now?",
         *             "output": "Sorry about that! Reply with a photo and we will send a replacement today."
         *           },
         *           "expected": 5,
         *           "expectedAspects": {
         *             "tone": 5,
         *             "next step": 5
         *           }
         *         }
         *       ]
         *     }
         */
        CreateRubricRequest: {
            /** @description The rubric's name, 1-200 characters (shown in lists). */
            name: string;
            /** @enum {string} */
            kind: "pairwise" | "pointwise";
            criteria: string;
            scale?: {
                min: number;
                max: number;
                levels?: {
                    score: number;
                    text: string;
                }[];
            };
            aspects?: {
                name: string;
                criteria: string;
                scale?: {
                    min: number;
                    max: number;
                    levels?: {
                        score: number;
                        text: string;
                    }[];
                };
                /** @default 1 */
                weight?: number;
                evaluationSteps?: string;
            }[];
            evaluationSteps?: string;
            autoSteps?: boolean;
            thresholds?: {
                score?: number[];
                aspects?: {
                    [key: string]: number[];
                };
            };
            /** @description Golden examples, at most 500: `POST …/versions/{n}/check` runs them as a meta-evaluation. */
            examples?: {
                task: {
                    /** @enum {string} */
                    kind: "pairwise";
                    question?: string;
                    messages?: ({
                        /** @enum {string} */
                        role: "user";
                        content: string;
                    } | {
                        /** @enum {string} */
                        role: "assistant";
                        content?: string;
                        answerA?: string;
                        answerB?: string;
                        reference?: string;
                    })[];
                    answerA: string;
                    answerB: string;
                    reference?: string;
                } | {
                    /** @enum {string} */
                    kind: "pointwise";
                    source?: string;
                    messages?: ({
                        /** @enum {string} */
                        role: "user";
                        content: string;
                    } | {
                        /** @enum {string} */
                        role: "assistant";
                        content: string;
                    })[];
                    context?: string;
                    output: string;
                    reference?: string;
                    aspect?: {
                        name: string;
                        description?: string;
                        scale: {
                            min: number;
                            max: number;
                        };
                    };
                    aspects?: {
                        name: string;
                        description?: string;
                        scale: {
                            min: number;
                            max: number;
                        };
                        weight?: number;
                    }[];
                } | {
                    /** @enum {string} */
                    kind: "trajectory";
                    request?: string;
                    messages?: ({
                        /** @enum {string} */
                        role: "user";
                        content: string;
                    } | {
                        /** @enum {string} */
                        role: "assistant";
                        content: string;
                    })[];
                    steps: {
                        /** @enum {string} */
                        type: "llm" | "tool" | "message" | "error";
                        spanId?: string;
                        name?: string;
                        input?: string;
                        output?: string;
                        error?: string;
                    }[];
                    finalAnswer?: string;
                    aspects?: {
                        name: string;
                        description?: string;
                        scale: {
                            min: number;
                            max: number;
                        };
                        weight?: number;
                    }[];
                };
                expected: ("A" | "B" | "tie") | number;
                expectedAspects?: {
                    [key: string]: number;
                };
                note?: string;
            }[];
        };
        RubricList: {
            data: components["schemas"]["Rubric"][];
            /** @description Pass as `cursor` for the next page; null on the last one. */
            nextCursor: string | null;
        };
        Rubric: {
            id: string;
            name: string;
            /** @enum {string} */
            kind: "pairwise" | "pointwise";
            latestVersion: number;
            tags: components["schemas"]["RubricTag"][];
            /** @description ISO 8601 UTC. */
            archivedAt: string | null;
            /** @description ISO 8601 UTC. */
            createdAt: string;
            /** @description ISO 8601 UTC. */
            updatedAt: string;
            links: components["schemas"]["RubricLinks"];
        };
        RubricTag: {
            tag: string;
            version: number;
            minAgreement: components["schemas"]["RubricMinAgreement"] | null;
            updatedAt: string;
        };
        RubricMinAgreement: {
            /**
             * @description The check's figure: pairwise `accuracy` or `kappa`; pointwise the item-level `pearson`, `spearman` or `kendall`, and `accuracy` when the version's scale has two points (pass/fail, e.g. 0-1).
             * @enum {string}
             */
            metric: "accuracy" | "kappa" | "pearson" | "spearman" | "kendall";
            min: number;
        };
        CreateRubricVersionRequest: {
            /** @description The rubric's name, 1-200 characters (shown in lists). */
            name?: string;
            /** @enum {string} */
            kind?: "pairwise" | "pointwise";
            criteria: string;
            scale?: {
                min: number;
                max: number;
                levels?: {
                    score: number;
                    text: string;
                }[];
            };
            aspects?: {
                name: string;
                criteria: string;
                scale?: {
                    min: number;
                    max: number;
                    levels?: {
                        score: number;
                        text: string;
                    }[];
                };
                /** @default 1 */
                weight?: number;
                evaluationSteps?: string;
            }[];
            evaluationSteps?: string;
            autoSteps?: boolean;
            thresholds?: {
                score?: number[];
                aspects?: {
                    [key: string]: number[];
                };
            };
            /** @description Golden examples, at most 500: `POST …/versions/{n}/check` runs them as a meta-evaluation. */
            examples?: {
                task: {
                    /** @enum {string} */
                    kind: "pairwise";
                    question?: string;
                    messages?: ({
                        /** @enum {string} */
                        role: "user";
                        content: string;
                    } | {
                        /** @enum {string} */
                        role: "assistant";
                        content?: string;
                        answerA?: string;
                        answerB?: string;
                        reference?: string;
                    })[];
                    answerA: string;
                    answerB: string;
                    reference?: string;
                } | {
                    /** @enum {string} */
                    kind: "pointwise";
                    source?: string;
                    messages?: ({
                        /** @enum {string} */
                        role: "user";
                        content: string;
                    } | {
                        /** @enum {string} */
                        role: "assistant";
                        content: string;
                    })[];
                    context?: string;
                    output: string;
                    reference?: string;
                    aspect?: {
                        name: string;
                        description?: string;
                        scale: {
                            min: number;
                            max: number;
                        };
                    };
                    aspects?: {
                        name: string;
                        description?: string;
                        scale: {
                            min: number;
                            max: number;
                        };
                        weight?: number;
                    }[];
                } | {
                    /** @enum {string} */
                    kind: "trajectory";
                    request?: string;
                    messages?: ({
                        /** @enum {string} */
                        role: "user";
                        content: string;
                    } | {
                        /** @enum {string} */
                        role: "assistant";
                        content: string;
                    })[];
                    steps: {
                        /** @enum {string} */
                        type: "llm" | "tool" | "message" | "error";
                        spanId?: string;
                        name?: string;
                        input?: string;
                        output?: string;
                        error?: string;
                    }[];
                    finalAnswer?: string;
                    aspects?: {
                        name: string;
                        description?: string;
                        scale: {
                            min: number;
                            max: number;
                        };
                        weight?: number;
                    }[];
                };
                expected: ("A" | "B" | "tie") | number;
                expectedAspects?: {
                    [key: string]: number;
                };
                note?: string;
            }[];
        };
        RubricVersionList: {
            data: components["schemas"]["RubricVersionSummary"][];
            /** @description Pass as `cursor` for the next page; null on the last one. */
            nextCursor: string | null;
        };
        RubricVersionSummary: {
            /** @description The rubric's id. */
            id: string;
            version: number;
            ref: string;
            name: string;
            /** @enum {string} */
            kind: "pairwise" | "pointwise";
            criteria: string;
            scale?: {
                min: number;
                max: number;
                levels?: {
                    score: number;
                    text: string;
                }[];
            };
            aspects?: {
                name: string;
                criteria: string;
                scale?: {
                    min: number;
                    max: number;
                    levels?: {
                        score: number;
                        text: string;
                    }[];
                };
                /** @default 1 */
                weight?: number;
                evaluationSteps?: string;
            }[];
            evaluationSteps?: string;
            autoSteps?: boolean;
            thresholds?: {
                score?: number[];
                aspects?: {
                    [key: string]: number[];
                };
            };
            hash: string;
            tags: string[];
            /** @description G-Eval's auto-CoT steps written for this version (generated, once, the first time a judge whose templates carry steps used it); null while none were: steps given with the version are `evaluationSteps` above. */
            steps: components["schemas"]["RubricSteps"] | null;
            check: components["schemas"]["RubricCheck"] | null;
            /** @description ISO 8601 UTC. */
            createdAt: string;
            /** @description How many golden examples it has. */
            examples: number;
        };
        RubricVersion: {
            /** @description The rubric's id. */
            id: string;
            version: number;
            ref: string;
            name: string;
            /** @enum {string} */
            kind: "pairwise" | "pointwise";
            criteria: string;
            scale?: {
                min: number;
                max: number;
                levels?: {
                    score: number;
                    text: string;
                }[];
            };
            aspects?: {
                name: string;
                criteria: string;
                scale?: {
                    min: number;
                    max: number;
                    levels?: {
                        score: number;
                        text: string;
                    }[];
                };
                /** @default 1 */
                weight?: number;
                evaluationSteps?: string;
            }[];
            evaluationSteps?: string;
            autoSteps?: boolean;
            thresholds?: {
                score?: number[];
                aspects?: {
                    [key: string]: number[];
                };
            };
            examples: {
                task: {
                    /** @enum {string} */
                    kind: "pairwise";
                    question?: string;
                    messages?: ({
                        /** @enum {string} */
                        role: "user";
                        content: string;
                    } | {
                        /** @enum {string} */
                        role: "assistant";
                        content?: string;
                        answerA?: string;
                        answerB?: string;
                        reference?: string;
                    })[];
                    answerA: string;
                    answerB: string;
                    reference?: string;
                } | {
                    /** @enum {string} */
                    kind: "pointwise";
                    source?: string;
                    messages?: ({
                        /** @enum {string} */
                        role: "user";
                        content: string;
                    } | {
                        /** @enum {string} */
                        role: "assistant";
                        content: string;
                    })[];
                    context?: string;
                    output: string;
                    reference?: string;
                    aspect?: {
                        name: string;
                        description?: string;
                        scale: {
                            min: number;
                            max: number;
                        };
                    };
                    aspects?: {
                        name: string;
                        description?: string;
                        scale: {
                            min: number;
                            max: number;
                        };
                        weight?: number;
                    }[];
                } | {
                    /** @enum {string} */
                    kind: "trajectory";
                    request?: string;
                    messages?: ({
                        /** @enum {string} */
                        role: "user";
                        content: string;
                    } | {
                        /** @enum {string} */
                        role: "assistant";
                        content: string;
                    })[];
                    steps: {
                        /** @enum {string} */
                        type: "llm" | "tool" | "message" | "error";
                        spanId?: string;
                        name?: string;
                        input?: string;
                        output?: string;
                        error?: string;
                    }[];
                    finalAnswer?: string;
                    aspects?: {
                        name: string;
                        description?: string;
                        scale: {
                            min: number;
                            max: number;
                        };
                        weight?: number;
                    }[];
                };
                expected: ("A" | "B" | "tie") | number;
                expectedAspects?: {
                    [key: string]: number;
                };
                note?: string;
            }[];
            hash: string;
            tags: string[];
            /** @description G-Eval's auto-CoT steps written for this version (generated, once, the first time a judge whose templates carry steps used it); null while none were: steps given with the version are `evaluationSteps` above. */
            steps: components["schemas"]["RubricSteps"] | null;
            check: components["schemas"]["RubricCheck"] | null;
            /** @description ISO 8601 UTC. */
            createdAt: string;
        };
        /**
         * @example {
         *       "version": 2,
         *       "minAgreement": {
         *         "metric": "accuracy",
         *         "min": 0.8
         *       }
         *     }
         */
        PutRubricTagRequest: {
            /** @description The version the tag points at from now on. */
            version: number;
            /** @description The tag's policy: a version may carry the tag only when its golden check's figure is at least `min`. Absent: the tag keeps its policy; null: none. */
            minAgreement?: components["schemas"]["RubricMinAgreement"] | null;
        };
        UsageReport: {
            tenant: string;
            from: string;
            to: string;
            /** @enum {string} */
            groupBy: "day" | "model" | "preset" | "key";
            rows: components["schemas"]["UsageRow"][];
            totals: {
                /** @description LLM calls billed (repairs included). */
                calls: number;
                promptTokens: number;
                cachedPromptTokens: number;
                completionTokens: number;
                costUsd: number;
                /** @description USD the providers' prompt caches saved: cached prompt tokens × (input − cached input price). */
                cacheSavedUsd: number;
                /** @description True when some token counts were estimated locally (the provider sent none). */
                estimated: boolean;
            };
            /** @description The verdict cache in the range (its hits make no call, so no usage row). */
            verdictCache: {
                /** @description Evaluations created in the range that the verdict cache served: 0 calls, $0. */
                hits: number;
                /** @description What those cached verdicts had cost when they were judged (USD): saved. */
                savedUsd: number;
            };
        };
        UsageRow: {
            /** @description The day (YYYY-MM-DD), model, preset or key id; null: no preset (a custom config) or no key (API_KEYS / open mode). */
            group: string | null;
            /** @description LLM calls billed (repairs included). */
            calls: number;
            promptTokens: number;
            cachedPromptTokens: number;
            completionTokens: number;
            costUsd: number;
            /** @description USD the providers' prompt caches saved: cached prompt tokens × (input − cached input price). */
            cacheSavedUsd: number;
            /** @description True when some token counts were estimated locally (the provider sent none). */
            estimated: boolean;
        };
        Tenant: {
            /** @example tn_k3v7q2mx5hd4wj6n */
            id: string;
            name: string;
            limits: components["schemas"]["TenantLimits"];
            effectiveLimits: components["schemas"]["EffectiveLimits"];
            current?: components["schemas"]["TenantCurrent"];
            createdAt: string;
            updatedAt: string;
        };
        TenantLimits: {
            /** @description Per-key request rate; null = the deployment default (RATE_LIMIT_REQUESTS per RATE_LIMIT_WINDOW_SECONDS). */
            rateLimit: {
                /** @description Requests per window (also the largest burst). */
                requests: number;
                /** @description Window length, seconds. */
                windowSeconds: number;
            } | null;
            /** @description Evaluations running at once (those at tier batch, asleep between their waves, not counted); beyond it they wait in the queue. Null = TENANT_MAX_RUNNING. */
            maxRunning: number | null;
            /** @description LLM spend per calendar month (UTC), USD; at the cap new submissions get 429 quota_exceeded. Null = no cap. */
            monthlySpendCapUsd: number | null;
            /** @description Evaluations created per calendar month (UTC); null = no cap. */
            monthlyEvaluationCap: number | null;
            /** @description Days an ended evaluation's task, transcript and verdict are kept, then erased as DELETE does (usage stays); a batch's items are counted from the batch's completion. 0 = until deleted. Null = RETENTION_DAYS (30). */
            retentionDays: number | null;
            /** @description false: task texts and transcripts are never kept past the verdict (only their hashes, the verdict and usage), and logs carry no content. Null = true. */
            storeContent: boolean | null;
            /**
             * @description The service tier of the tenant's evaluations, batches and meta-evaluations that name none, where every provider of the judge offers it; null = the providers' default (else `standard`).
             * @enum {string|null}
             */
            defaultTier: "standard" | "flex" | "batch" | null;
            /** @description D1 shards the tenant's new evaluations and batches are spread over (a power of two, 1-64; a batch's items stay with their batch); for a tenant whose verdicts one database cannot hold (docs/scale.md). Lowering it moves nothing: rows written under a larger spread stay listed and readable. The running cap is shared out between the shards. Null or absent = 1. */
            spread: number | null;
        };
        EffectiveLimits: {
            rateLimit: {
                /** @description Requests per window (also the largest burst). */
                requests: number;
                /** @description Window length, seconds. */
                windowSeconds: number;
            };
            maxRunning: number;
            monthlySpendCapUsd: number | null;
            monthlyEvaluationCap: number | null;
            /** @description Days content is kept after an evaluation's end (a batch item's: its batch's completion); 0 = until deleted. */
            retentionDays: number;
            /** @description Whether task texts and transcripts are kept past the verdict. */
            storeContent: boolean;
            /** @enum {string|null} */
            defaultTier: "standard" | "flex" | "batch" | null;
            /** @description D1 shards the tenant's new evaluations and batches are spread over. */
            spread: number;
            /** @description D1 shards its evaluations and batches may be in: the largest spread it ever had (what its listings read). */
            readSpread: number;
        };
        TenantCurrent: {
            evaluationsThisMonth: number;
            spendThisMonthUsd: number;
            /** @description Evaluations holding a running slot now. */
            running: number;
            /** @description Queued evaluations waiting for a running slot (the tenant is at its cap). */
            waiting: number;
            /** @description When the monthly quotas reset: the first day of next month, 00:00 UTC. */
            quotaResetAt: string;
        };
        CreateTenantRequest: {
            /** @description A name for people (the customer, the team). */
            name: string;
            /** @description Usually left out (a new `tn_…` id is made). Give the 12-hex tenant id of an `API_KEYS` token to set limits for that tenant, or to move it to managed keys with its history. */
            id?: string;
            /** @description Settings; anything left out is the deployment default (no quota). */
            limits?: {
                /** @description Per-key request rate; null = the deployment default (RATE_LIMIT_REQUESTS per RATE_LIMIT_WINDOW_SECONDS). */
                rateLimit?: {
                    /** @description Requests per window (also the largest burst). */
                    requests: number;
                    /** @description Window length, seconds. */
                    windowSeconds: number;
                } | null;
                /** @description Evaluations running at once (those at tier batch, asleep between their waves, not counted); beyond it they wait in the queue. Null = TENANT_MAX_RUNNING. */
                maxRunning?: number | null;
                /** @description LLM spend per calendar month (UTC), USD; at the cap new submissions get 429 quota_exceeded. Null = no cap. */
                monthlySpendCapUsd?: number | null;
                /** @description Evaluations created per calendar month (UTC); null = no cap. */
                monthlyEvaluationCap?: number | null;
                /** @description Days an ended evaluation's task, transcript and verdict are kept, then erased as DELETE does (usage stays); a batch's items are counted from the batch's completion. 0 = until deleted. Null = RETENTION_DAYS (30). */
                retentionDays?: number | null;
                /** @description false: task texts and transcripts are never kept past the verdict (only their hashes, the verdict and usage), and logs carry no content. Null = true. */
                storeContent?: boolean | null;
                /**
                 * @description The service tier of the tenant's evaluations, batches and meta-evaluations that name none, where every provider of the judge offers it; null = the providers' default (else `standard`).
                 * @enum {string|null}
                 */
                defaultTier?: "standard" | "flex" | "batch" | null;
                /** @description D1 shards the tenant's new evaluations and batches are spread over (a power of two, 1-64; a batch's items stay with their batch); for a tenant whose verdicts one database cannot hold (docs/scale.md). Lowering it moves nothing: rows written under a larger spread stay listed and readable. The running cap is shared out between the shards. Null or absent = 1. */
                spread?: number | null;
            };
        };
        TenantList: {
            tenants: components["schemas"]["Tenant"][];
            /** @description Pass as `after` for the next page; null on the last. */
            next: string | null;
        };
        UpdateTenantRequest: {
            name?: string;
            limits?: {
                /** @description Per-key request rate; null = the deployment default (RATE_LIMIT_REQUESTS per RATE_LIMIT_WINDOW_SECONDS). */
                rateLimit?: {
                    /** @description Requests per window (also the largest burst). */
                    requests: number;
                    /** @description Window length, seconds. */
                    windowSeconds: number;
                } | null;
                /** @description Evaluations running at once (those at tier batch, asleep between their waves, not counted); beyond it they wait in the queue. Null = TENANT_MAX_RUNNING. */
                maxRunning?: number | null;
                /** @description LLM spend per calendar month (UTC), USD; at the cap new submissions get 429 quota_exceeded. Null = no cap. */
                monthlySpendCapUsd?: number | null;
                /** @description Evaluations created per calendar month (UTC); null = no cap. */
                monthlyEvaluationCap?: number | null;
                /** @description Days an ended evaluation's task, transcript and verdict are kept, then erased as DELETE does (usage stays); a batch's items are counted from the batch's completion. 0 = until deleted. Null = RETENTION_DAYS (30). */
                retentionDays?: number | null;
                /** @description false: task texts and transcripts are never kept past the verdict (only their hashes, the verdict and usage), and logs carry no content. Null = true. */
                storeContent?: boolean | null;
                /**
                 * @description The service tier of the tenant's evaluations, batches and meta-evaluations that name none, where every provider of the judge offers it; null = the providers' default (else `standard`).
                 * @enum {string|null}
                 */
                defaultTier?: "standard" | "flex" | "batch" | null;
                /** @description D1 shards the tenant's new evaluations and batches are spread over (a power of two, 1-64; a batch's items stay with their batch); for a tenant whose verdicts one database cannot hold (docs/scale.md). Lowering it moves nothing: rows written under a larger spread stay listed and readable. The running cap is shared out between the shards. Null or absent = 1. */
                spread?: number | null;
            };
        };
        CreatedKey: {
            /**
             * @description The API key. Shown only here: Tribunal keeps its sha-256 only.
             * @example trb_x7k2m6p4r2t3x6c3v5b7nmq2w4e6r5tq
             */
            key: string;
            apiKey: components["schemas"]["ApiKey"];
        };
        ApiKey: {
            /** @example key_p4r2t5x6c3v5b7nm */
            id: string;
            tenantId: string;
            /**
             * @description The key's first characters, to tell keys apart.
             * @example trb_x7k2m6
             */
            prefix: string;
            label: string;
            scopes: ("evaluations:write" | "read" | "admin")[];
            /** @enum {string} */
            status: "active" | "revoked" | "expired";
            createdAt: string;
            /** @description Updated at most once a minute. */
            lastUsedAt: string | null;
            expiresAt: string | null;
            revokedAt: string | null;
        };
        CreateKeyRequest: {
            tenantId: string;
            /**
             * @description What the key is for, e.g. "ci" or "prod-eu".
             * @default
             */
            label?: string;
            /** @description Default `["evaluations:write", "read"]`. `admin` gives the admin API (every tenant): for the operator's own keys only. */
            scopes?: ("evaluations:write" | "read" | "admin")[];
            /**
             * Format: date-time
             * @description When the key stops working (ISO 8601, in the future). Default: never.
             */
            expiresAt?: string;
        };
        KeyList: {
            keys: components["schemas"]["ApiKey"][];
            /** @description Pass as `after` for the next page; null on the last. */
            next: string | null;
        };
        ShardCarryOver: {
            /** @description Rows this call moved out of the control database into their shards, by table. */
            moved: {
                [key: string]: number;
            };
            /** @description True once the control database holds no tenant row: later calls return at once. False: call again. */
            done: boolean;
        };
        BatchAccepted: {
            id: string;
            kind: components["schemas"]["BatchKind"];
            status: components["schemas"]["BatchStatus"];
            itemsTotal: number;
            links: components["schemas"]["BatchLinks"];
            /** @description What the request asked for holds, but not as one may expect (e.g. `tier_price_missing`: a tier billed at the standard price). Present only on the answer to the request that created the resource, and only with a warning. */
            warnings?: components["schemas"]["Warning"][];
        };
        /** @enum {string} */
        BatchKind: "batch" | "meta_evaluation" | "comparison";
        /**
         * @description `running` → `completed` once every item ended; after a cancel `cancelling` → `cancelled` once every item ended.
         * @enum {string}
         */
        BatchStatus: "running" | "cancelling" | "completed" | "cancelled";
        BatchLinks: {
            self: string;
            results: string;
            cancel: string;
        };
        CreateBatchRequest: {
            /** @description Preset id from GET /v1/methods. Its config is the base the `config` overrides merge into. */
            preset?: string;
            /** @description Overrides deep-merged over the preset's config (objects merge, arrays and scalars replace), or a full config with `method` when no preset is given. The result must satisfy MethodConfig. */
            config?: components["schemas"]["MethodConfigOverrides"];
            items: components["schemas"]["BatchItem"][];
            rubric?: components["schemas"]["RubricRef"];
            webhook?: components["schemas"]["OneOffWebhook"];
            cache?: components["schemas"]["CacheMode"];
            /** @description The sample or seed index of this verdict (0 to 2^31 − 1), part of the verdict cache key: verdicts of different seeds are cached apart, so a judge sampling at a temperature above 0 is cached per seed (seed 0, 1, 2 … for several samples of one item). It keys the cache only: providers get no seed (their seeds are best effort and many refuse one). */
            seed?: number;
            /**
             * @description Spending limits of the whole batch. Checked at submit against the estimate (`POST /v1/estimates`): 400 naming `budget.<limit>` when even the cheapest run of every item cannot fit. While it runs, each item is launched with a share of what is left as its own budget (enforced call by call); once nothing is left, items not launched end `failed` with `budget_exceeded`. Per-item limits go in `config.budget` instead.
             * @example {
             *       "maxCostUsd": 0.05
             *     }
             * @example {
             *       "maxCalls": 12,
             *       "maxTokens": 60000
             *     }
             */
            budget?: {
                maxCostUsd?: number;
                maxCalls?: number;
                maxTokens?: number;
            };
            /**
             * @description The service tier of every item (absent: the tenant's default, else the providers' default, else `standard`). At `batch` the items run all at once and their ready calls go to the provider's Batch API in waves: every ready call of every item for one provider and model in one provider batch; when its results are in, the next ready calls form the next wave. A tier a provider of the judge does not offer is a 400 `tier_unsupported` naming the provider.
             * @enum {string}
             */
            tier?: "standard" | "flex" | "batch";
            /**
             * @description What a flex refusal leads to (tier `flex` only; default `standard`).
             * @enum {string}
             */
            flexFallback?: "standard" | "wait";
            /** @description Judge each task N times (2-10): N separate runs of the judge, each its own stored LLM calls, never answered by the verdict cache. The verdict is the runs' majority (pointwise: their mean score) and `stability` reports how far they agree. A failed call fails the evaluation: an error, never a verdict. */
            repeat?: number;
            /** @description Certified mode (Trust or Escalate): calibrate the judge on the labelled items of the stored `rubric` version's annotation queues (the judge judges them once; `503 calibration_pending` while it does), then answer only where the judge's confidence reaches the calibrated threshold: the answered verdicts agree with the labels at least `agreement` of the time with probability at least 1 − `risk`. Below it, a cascade judge escalates to its next stage; after the last stage (or with a plain judge) the item abstains: no winner, `certified: false`. Pairwise only; needs `rubric` as `rb_…`, `rb_…@n` or `rb_…#tag`; too few labels is `409 labels_needed` (`error.labelsNeeded`). */
            certify?: {
                agreement: number;
                risk: number;
            };
        };
        BatchItem: {
            /** @description Your id for the item (unique in the batch); results carry it back. */
            id?: string;
            task: components["schemas"]["Task"];
            metadata?: components["schemas"]["Metadata"];
            rubric?: components["schemas"]["RubricRef"];
        };
        BatchList: {
            data: components["schemas"]["BatchSummary"][];
            /** @description Pass as `cursor` for the next page; null on the last one. */
            nextCursor: string | null;
        };
        BatchSummary: {
            id: string;
            kind: components["schemas"]["BatchKind"];
            status: components["schemas"]["BatchStatus"];
            method: string;
            preset: string | null;
            tier: components["schemas"]["Tier"];
            flexFallback: components["schemas"]["FlexFallback"];
            counts: components["schemas"]["BatchCounts"];
            /** @description ISO 8601 UTC. */
            createdAt: string;
            /** @description ISO 8601 UTC. */
            completedAt: string | null;
            /** @description ISO 8601 UTC. */
            cancelRequestedAt: string | null;
            links: components["schemas"]["BatchLinks"];
        };
        BatchCounts: {
            total: number;
            pending: number;
            ended: number;
            succeeded: number;
            failed: number;
            cancelled: number;
        };
        Batch: {
            id: string;
            kind: components["schemas"]["BatchKind"];
            status: components["schemas"]["BatchStatus"];
            method: string;
            preset: string | null;
            tier: components["schemas"]["Tier"];
            flexFallback: components["schemas"]["FlexFallback"];
            counts: components["schemas"]["BatchCounts"];
            /** @description ISO 8601 UTC. */
            createdAt: string;
            /** @description ISO 8601 UTC. */
            completedAt: string | null;
            /** @description ISO 8601 UTC. */
            cancelRequestedAt: string | null;
            links: components["schemas"]["BatchLinks"];
            webhook: components["schemas"]["OneOffWebhook"] | null;
            budget: components["schemas"]["Budget"] | null;
            /** @description ISO 8601 UTC. */
            budgetExhaustedAt: string | null;
            verdicts: components["schemas"]["BatchVerdictStats"];
            usage: components["schemas"]["UsageTotals"];
            cache: components["schemas"]["BatchCache"];
            stability: components["schemas"]["StabilitySummary"] | null;
            /** @description With `certify`: the agreement and risk asked for, the coverage the calibration reached on the labelled items, and how many it calibrated on; null otherwise. */
            guarantee: components["schemas"]["Guarantee"] | null;
        };
        BatchVerdictStats: {
            verdicts: number;
            winsA: number;
            winsB: number;
            ties: number;
            winRateA: number | null;
            winRateB: number | null;
            tieRate: number | null;
            meanScore: number | null;
            aspects: {
                name: string;
                meanScore: number | null;
                verdicts: number;
            }[];
        };
        BatchCache: {
            /** @description Items that succeeded with a cached verdict (`cache.hit` on their evaluation): no LLM call, $0. */
            hits: number;
            /** @description What those cached verdicts had cost when they were judged (USD): saved by this batch. */
            savedUsd: number;
        };
        /** @description Stability over every item of a run (see Stability). */
        StabilitySummary: {
            flipRate: number | null;
            scoreStdDev: number | null;
            items: number;
            unstable: number;
            errors: number;
        };
        BatchResultLine: {
            /** @description 0-based position of the item in the request. */
            index: number;
            /** @description The item's `id` as sent, or null. */
            itemId: string | null;
            evaluationId: string;
            status: components["schemas"]["EvaluationStatus"];
            deleted: boolean;
            metadata: components["schemas"]["Metadata"] | null;
            verdict: components["schemas"]["VerdictSummary"] | null;
            error: components["schemas"]["EvaluationError"] | null;
            rubric: components["schemas"]["RubricStamp"] | null;
            stability: components["schemas"]["Stability"] | null;
            /** @description With `certify`, once ended: true when the verdict is certified (its stage reached its threshold); false when it abstained or failed. Null otherwise. */
            certified: boolean | null;
            /** @description With `certify`, once ended: `answered`, `escalated` (a later cascade stage), `abstained` or `error`. */
            certification: components["schemas"]["Certification"] | null;
        };
        Comparison: {
            id: string;
            status: components["schemas"]["BatchStatus"];
            method: string;
            preset: string | null;
            tier: components["schemas"]["Tier"];
            flexFallback: components["schemas"]["FlexFallback"];
            candidates: string[];
            design: components["schemas"]["ComparisonDesign"];
            items: number;
            /** @description 1 when the judge runs both presentation orders inside each evaluation (its position calibration: most pairwise presets), 2 when it runs one order (the pair is judged as AB and as BA, two evaluations, combined by agree-or-tie). */
            evaluationsPerPair: 1 | 2;
            /** @description Its evaluations by status. */
            counts: {
                total: number;
                pending: number;
                ended: number;
                succeeded: number;
                failed: number;
                cancelled: number;
            };
            /**
             * @description The gate's final outcome; null before the comparison completed or without a gate.
             * @enum {string|null}
             */
            gateOutcome: "passed" | "failed" | "inconclusive" | null;
            /** @description ISO 8601 UTC. */
            createdAt: string;
            /** @description ISO 8601 UTC. */
            completedAt: string | null;
            /** @description ISO 8601 UTC. */
            cancelRequestedAt: string | null;
            links: components["schemas"]["ComparisonLinks"];
            basis: components["schemas"]["ComparisonStatisticsBasis"];
            /** @description One entry per pair judged, `a` before `b` in `candidates`. */
            pairs: components["schemas"]["ComparisonPair"][];
            matrix: components["schemas"]["WinMatrix"];
            /** @description Best first. */
            ranking: components["schemas"]["RankingEntry"][];
            strengths: components["schemas"]["ComparisonStrengths"];
            judge: components["schemas"]["ComparisonJudgeRates"];
            /** @description The gate, when the request asked for one. */
            gate: components["schemas"]["GateResult"] | null;
            /** @description One line a CI log can print: the gate's summary when there is a gate, else the ranking. */
            summary: string;
            webhook: components["schemas"]["OneOffWebhook"] | null;
            budget: components["schemas"]["Budget"] | null;
            /** @description Every LLM call billed for its evaluations. */
            usage: {
                calls: number;
                promptTokens: number;
                completionTokens: number;
                cachedPromptTokens: number;
                estimated: boolean;
                costUsd: number;
                /** @description USD the provider's prompt cache saved: cached prompt tokens × (input − cached input price). */
                cacheSavedUsd: number;
            };
            /** @description With `certify`: the agreement and risk asked for, the coverage the calibration reached on the labelled items, and how many it calibrated on; null otherwise. */
            guarantee: components["schemas"]["Guarantee"] | null;
            /** @description What the request asked for holds, but not as one may expect (e.g. `tier_price_missing`: a tier billed at the standard price). Present only on the answer to the request that created the resource, and only with a warning. */
            warnings?: components["schemas"]["Warning"][];
        };
        ComparisonLinks: {
            self: string;
            results: string;
            cancel: string;
            /** @description The same evaluations as a batch (`GET /v1/batches/{id}`). */
            batch: string;
        };
        /**
         * @description `final`: computed once every evaluation ended and stored; `live`: computed now over the evaluations ended so far (intervals from 200 resamples); `live-counts`: a large running comparison (more than 5,000 evaluations) computed from verdict counts, the strength intervals (and so every rank but 1) appear once it completes.
         * @enum {string}
         */
        ComparisonStatisticsBasis: "final" | "live" | "live-counts";
        /** @description The N × N win matrix, rows and columns in `candidates` order: `wins[r][c]` items r beat c, `ties[r][c]`, `winRate[r][c]` r over c with ties as half (null on the diagonal and for pairs never judged). */
        WinMatrix: {
            candidates: string[];
            wins: number[][];
            ties: number[][];
            winRate: (number | null)[][];
        };
        ComparisonStrengths: {
            /** @enum {string} */
            model: "bradley-terry" | "davidson";
            /** @enum {string} */
            scale: "log";
            /**
             * @description The strengths sum to 0 (only their differences are identified).
             * @enum {string}
             */
            centring: "sum-zero";
            /** @description Davidson's tie parameter ν; null for bradley-terry. */
            nu: number | null;
            /** @description Virtual wins and losses per candidate against a θ = 0 opponent (keeps a sweep finite); 1. */
            prior: number;
            /** @enum {string} */
            solver: "newton" | "mm";
            converged: boolean;
            iterations: number;
            logLikelihood: number;
            bootstrap: {
                /** @description 0 while the intervals are not computed (see `basis`). */
                resamples: number;
                seed: number;
                level: number;
                dropped: number;
            };
        };
        ComparisonAccepted: {
            id: string;
            status: components["schemas"]["BatchStatus"];
            items: number;
            /** @description Pairs judged on every item. */
            pairs: number;
            /** @description 1 when the judge runs both presentation orders inside each evaluation (its position calibration: most pairwise presets), 2 when it runs one order (the pair is judged as AB and as BA, two evaluations, combined by agree-or-tie). */
            evaluationsPerPair: 1 | 2;
            /** @description items × pairs × evaluationsPerPair. */
            evaluations: number;
            links: components["schemas"]["ComparisonLinks"];
            /** @description What the request asked for holds, but not as one may expect (e.g. `tier_price_missing`: a tier billed at the standard price). Present only on the answer to the request that created the resource, and only with a warning. */
            warnings?: components["schemas"]["Warning"][];
        };
        CreateComparisonRequest: {
            /** @description Preset id from GET /v1/methods. Its config is the base the `config` overrides merge into. */
            preset?: string;
            /** @description Overrides deep-merged over the preset's config (objects merge, arrays and scalars replace), or a full config with `method` when no preset is given. The result must satisfy MethodConfig. */
            config?: components["schemas"]["MethodConfigOverrides"];
            /** @description The rubric every pair evaluation judges by, as on `POST /v1/evaluations` (resolved once, at submit). */
            rubric?: string | {
                /** @enum {string} */
                kind: "pairwise" | "pointwise";
                criteria: string;
                scale?: {
                    min: number;
                    max: number;
                    levels?: {
                        score: number;
                        text: string;
                    }[];
                };
                aspects?: {
                    name: string;
                    criteria: string;
                    scale?: {
                        min: number;
                        max: number;
                        levels?: {
                            score: number;
                            text: string;
                        }[];
                    };
                    /** @default 1 */
                    weight?: number;
                    evaluationSteps?: string;
                }[];
                evaluationSteps?: string;
                autoSteps?: boolean;
                thresholds?: {
                    score?: number[];
                    aspects?: {
                        [key: string]: number[];
                    };
                };
                /** @description Accepted so that a rubric body can be sent as is; not used. */
                name?: string;
                /** @description Accepted (and checked) so that a rubric body can be sent as is; not run. */
                examples?: {
                    task: {
                        /** @enum {string} */
                        kind: "pairwise";
                        question?: string;
                        messages?: ({
                            /** @enum {string} */
                            role: "user";
                            content: string;
                        } | {
                            /** @enum {string} */
                            role: "assistant";
                            content?: string;
                            answerA?: string;
                            answerB?: string;
                            reference?: string;
                        })[];
                        answerA: string;
                        answerB: string;
                        reference?: string;
                    } | {
                        /** @enum {string} */
                        kind: "pointwise";
                        source?: string;
                        messages?: ({
                            /** @enum {string} */
                            role: "user";
                            content: string;
                        } | {
                            /** @enum {string} */
                            role: "assistant";
                            content: string;
                        })[];
                        context?: string;
                        output: string;
                        reference?: string;
                        aspect?: {
                            name: string;
                            description?: string;
                            scale: {
                                min: number;
                                max: number;
                            };
                        };
                        aspects?: {
                            name: string;
                            description?: string;
                            scale: {
                                min: number;
                                max: number;
                            };
                            weight?: number;
                        }[];
                    } | {
                        /** @enum {string} */
                        kind: "trajectory";
                        request?: string;
                        messages?: ({
                            /** @enum {string} */
                            role: "user";
                            content: string;
                        } | {
                            /** @enum {string} */
                            role: "assistant";
                            content: string;
                        })[];
                        steps: {
                            /** @enum {string} */
                            type: "llm" | "tool" | "message" | "error";
                            spanId?: string;
                            name?: string;
                            input?: string;
                            output?: string;
                            error?: string;
                        }[];
                        finalAnswer?: string;
                        aspects?: {
                            name: string;
                            description?: string;
                            scale: {
                                min: number;
                                max: number;
                            };
                            weight?: number;
                        }[];
                    };
                    expected: ("A" | "B" | "tie") | number;
                    expectedAspects?: {
                        [key: string]: number;
                    };
                    note?: string;
                }[];
            };
            /** @description Certified mode (Trust or Escalate): calibrate the judge on the labelled items of the stored `rubric` version's annotation queues (the judge judges them once; `503 calibration_pending` while it does), then answer only where the judge's confidence reaches the calibrated threshold: the answered verdicts agree with the labels at least `agreement` of the time with probability at least 1 − `risk`. Below it, a cascade judge escalates to its next stage; after the last stage (or with a plain judge) the item abstains: no winner, `certified: false`. Pairwise only; needs `rubric` as `rb_…`, `rb_…@n` or `rb_…#tag`; too few labels is `409 labels_needed` (`error.labelsNeeded`). */
            certify?: {
                agreement: number;
                risk: number;
            };
            /** @description 2-8 distinct names; pairs are oriented by this order (`a` is the one listed first). */
            candidates: string[];
            items: components["schemas"]["ComparisonItem"][];
            design: components["schemas"]["ComparisonDesign"];
            gate?: components["schemas"]["ComparisonGate"];
            statistics?: components["schemas"]["ComparisonStatisticsOptions"];
            /** @description Also POST `comparison.completed` (and no other event) to `url`, signed with the tenant's signing secret. */
            webhook?: {
                /**
                 * @description An `https` URL of a public host. Refused with 400 `url_not_allowed` naming the rule: other schemes (plain `http` only to loopback when the deployment sets `WEBHOOK_ALLOW_LOOPBACK=true`), credentials in the URL, IP literals in private, loopback, link-local, CGNAT, multicast, reserved or cloud-metadata ranges (any IPv4 notation, IPv4-mapped IPv6 included).
                 * @example https://hooks.example.com/tribunal
                 */
                url: string;
            };
            /**
             * @description Spending limits of the whole comparison (every pair evaluation), as a batch's `budget`: estimated at submit (as `POST /v1/estimates` estimates this body) and refused with a 400 naming `budget.<limit>` when not even the estimate's floor fits; shared out as the evaluations launch; once used up, evaluations not launched end `failed` (`budget_exceeded`) and their pairs count as missing.
             * @example {
             *       "maxCostUsd": 0.05
             *     }
             * @example {
             *       "maxCalls": 12,
             *       "maxTokens": 60000
             *     }
             */
            budget?: {
                maxCostUsd?: number;
                maxCalls?: number;
                maxTokens?: number;
            };
            /**
             * @description The service tier of every pair evaluation, as a batch's `tier` (absent: the tenant's default, else the providers' default, else `standard`). A tier a provider of the judge does not offer is a 400 `tier_unsupported` naming the provider.
             * @enum {string}
             */
            tier?: "standard" | "flex" | "batch";
            /**
             * @description What a flex refusal leads to (tier `flex` only; default `standard`).
             * @enum {string}
             */
            flexFallback?: "standard" | "wait";
            /**
             * @description The verdict cache of every pair evaluation, as on `POST /v1/evaluations` (unset: `use`, except for a judge sampling above temperature 0): a pair this tenant had judged with the same judge, rubric and outputs within VERDICT_CACHE_TTL_DAYS is served from the cache, 0 calls and $0 (so a CI gate re-judging an unchanged candidate pays only for what changed); `refresh` judges every pair anew and replaces the entries; `off` neither reads nor writes.
             * @enum {string}
             */
            cache?: "use" | "refresh" | "off";
        };
        ComparisonItem: {
            /** @description Your id for the item (unique in the comparison); results carry it back. */
            id: string;
            question?: string;
            /** @description The conversation before the judged replies, instead of `question` (the last message is the user turn). Earlier assistant turns are shared by every candidate here: give them as `content`. */
            messages?: ({
                /** @enum {string} */
                role: "user";
                content: string;
            } | {
                /** @enum {string} */
                role: "assistant";
                content?: string;
                answerA?: string;
                answerB?: string;
                reference?: string;
            })[];
            reference?: string;
            /** @description Each candidate's output, keyed by its name in `candidates`: one for every candidate, no other. */
            outputs: {
                [key: string]: string;
            };
        };
        /** @description Is `candidate` better than `baseline`? The candidate's win rate over the baseline (ties as half) gets a Wilson interval at `confidence` (two-sided, [0.5, 1), default 0.95): `passed` when its lower bound is above `minWinRate` ((0, 1), default 0.5), `failed` when its upper bound is below it, else `inconclusive` with how many more items would likely decide it. */
        ComparisonGate: {
            candidate: string;
            baseline: string;
            /** @default 0.5 */
            minWinRate?: number;
            /** @default 0.95 */
            confidence?: number;
        };
        ComparisonStatisticsOptions: {
            /**
             * @description `bradley-terry`: ties count as half a win for each side (default); `davidson`: ties modelled with a fitted tie parameter ν.
             * @default bradley-terry
             * @enum {string}
             */
            model?: "bradley-terry" | "davidson";
            /**
             * @description Level of the pair win-rate intervals and the strength intervals, in (0, 1); default 0.95.
             * @default 0.95
             */
            level?: number;
            /**
             * @description Bootstrap resamples of items for the strength intervals, 100-10,000; default 1000.
             * @default 1000
             */
            resamples?: number;
            /**
             * @description Bootstrap seed; the same verdicts and seed give the same intervals. Default 0.
             * @default 0
             */
            seed?: number;
        };
        ComparisonList: {
            data: components["schemas"]["ComparisonSummary"][];
            /** @description Pass as `cursor` for the next page; null on the last one. */
            nextCursor: string | null;
        };
        ComparisonSummary: {
            id: string;
            status: components["schemas"]["BatchStatus"];
            method: string;
            preset: string | null;
            tier: components["schemas"]["Tier"];
            flexFallback: components["schemas"]["FlexFallback"];
            candidates: string[];
            design: components["schemas"]["ComparisonDesign"];
            items: number;
            /** @description 1 when the judge runs both presentation orders inside each evaluation (its position calibration: most pairwise presets), 2 when it runs one order (the pair is judged as AB and as BA, two evaluations, combined by agree-or-tie). */
            evaluationsPerPair: 1 | 2;
            /** @description Its evaluations by status. */
            counts: {
                total: number;
                pending: number;
                ended: number;
                succeeded: number;
                failed: number;
                cancelled: number;
            };
            /**
             * @description The gate's final outcome; null before the comparison completed or without a gate.
             * @enum {string|null}
             */
            gateOutcome: "passed" | "failed" | "inconclusive" | null;
            /** @description ISO 8601 UTC. */
            createdAt: string;
            /** @description ISO 8601 UTC. */
            completedAt: string | null;
            /** @description ISO 8601 UTC. */
            cancelRequestedAt: string | null;
            links: components["schemas"]["ComparisonLinks"];
        };
        /** @description An item line (`kind: "item"`) per item in request order, each pair with its verdict and evaluations; the last page ends with one `kind: "summary"` line: the gate and the ranking as of now (`basis`). */
        ComparisonResultLine: {
            /** @enum {string} */
            kind: "item";
            /** @description 0-based position of the item in the request. */
            index: number;
            itemId: string;
            pairs: {
                a: string;
                b: string;
                /** @description The candidate that won, `tie`, or null (no verdict yet, or none). */
                winner: string | null;
                /** @description Whether the two presentation orders disagreed; null when not measured. */
                flip: boolean | null;
                evaluations: {
                    id: string;
                    /**
                     * @description `AB`: `a` shown as answer A; `BA`: `b` shown as answer A.
                     * @enum {string}
                     */
                    order: "AB" | "BA";
                    status: components["schemas"]["EvaluationStatus"];
                    /**
                     * @description The evaluation's own winner, in its own A/B terms (see `order`); null without one.
                     * @enum {string|null}
                     */
                    winner: "A" | "B" | "tie" | null;
                    error: components["schemas"]["EvaluationError"] | null;
                    /** @description With `certify`, once ended: true when the verdict is certified (its stage reached its threshold); false when it abstained or failed. Null otherwise. */
                    certified: boolean | null;
                }[];
            }[];
            /**
             * @description With a gate: how this item went for the gate's candidate against its baseline; null without a verdict or a gate.
             * @enum {string|null}
             */
            gate: "win" | "tie" | "loss" | null;
        } | {
            /** @enum {string} */
            kind: "summary";
            status: components["schemas"]["BatchStatus"];
            basis: components["schemas"]["ComparisonStatisticsBasis"];
            gate: components["schemas"]["GateResult"] | null;
            ranking: components["schemas"]["RankingEntry"][];
            summary: string;
        };
        Estimate: {
            method: string;
            preset: string | null;
            evaluations: number;
            sampled: {
                items: number;
                of: number;
            } | null;
            adaptive: boolean;
            calls: {
                min: number;
                expected: number;
                max: number;
                withRepairs: number;
            };
            promptTokens: components["schemas"]["EstimateRange"];
            completionTokens: components["schemas"]["EstimateRange"];
            costUsd: components["schemas"]["EstimateRange"];
            models: components["schemas"]["ModelEstimate"][];
            budget: {
                maxCostUsd?: components["schemas"]["BudgetFit"];
                maxCalls?: components["schemas"]["BudgetFit"];
                maxTokens?: components["schemas"]["BudgetFit"];
            } | null;
            waves: {
                min: number;
                max: number;
            };
            tiers: {
                standard: components["schemas"]["TierEstimate"];
                flex: components["schemas"]["TierEstimate"];
                batch: components["schemas"]["TierEstimate"];
            };
            /** @description The preset's cacheable share with provider prompt caching (each evaluation sends one prompt_cache_key). costUsd does not count it. */
            promptCache: {
                /** @description Prompt tokens of one evaluation of the first item, its longest path. */
                promptTokens: number;
                /** @description Of those, the tokens a provider's prompt cache could bill as cached: each prompt's prefix shared with a call that ended before it was sent (same model), by OpenAI's rule (prompts of 1,024+ tokens, 128-token steps). */
                cacheableTokens: number;
                /** @description cacheableTokens / promptTokens (0 without prompt tokens). */
                cacheableShare: number;
            };
            assumptions: string[];
            /** @description With `include: ["prompts"]`: the exact prompts one evaluation sends before any reply. Later calls carry replies only a real run has, and are not shown. */
            prompts?: {
                /** @description Which evaluation of the body: 0 (the task, or a batch's first item). */
                evaluation: number;
                /** @description The calls sent before any reply (a debate's first round), in order. */
                calls: components["schemas"]["RenderedCall"][];
                /** @description What is shown and what is not, in words. */
                note: string;
            };
            /** @description What the request asked for holds, but not as one may expect (e.g. `tier_price_missing`: a tier billed at the standard price). Present only on the answer to the request that created the resource, and only with a warning. */
            warnings?: components["schemas"]["Warning"][];
        };
        EstimateRange: {
            min: number;
            expected: number;
            max: number;
        };
        ModelEstimate: {
            model: string;
            provider: string;
            priced: boolean;
            /** @enum {string} */
            tokenCount: "exact" | "o200k-proxy" | "estimate";
            calls: {
                min: number;
                expected: number;
                max: number;
            };
            promptTokens: components["schemas"]["EstimateRange"];
            completionTokens: components["schemas"]["EstimateRange"];
            costUsd: components["schemas"]["EstimateRange"];
        };
        /** @enum {string} */
        BudgetFit: "yes" | "maybe" | "no";
        TierEstimate: {
            /** @description Whether every provider of the judge offers the tier on this deployment. */
            available: boolean;
            /** @description Why the tier is not available, when it is not. */
            unavailableReason?: string;
            /** @description USD at the tier's price (the price table's flex / batch price, else the standard one). */
            costUsd: {
                min: number;
                expected: number;
                max: number;
            };
            /** @description Seconds until every evaluation has its verdict: rounds of dependent calls times a round's time (batch: the provider's turnaround per wave typically, the 24 h completion window per wave at worst). */
            seconds: {
                typical: number;
                worst: number;
            };
        };
        RenderedCall: {
            /** @description The call's id in the evaluation, as in its transcript, e.g. `ab/turn1/agent0`. */
            id: string;
            /** @description The agent that speaks, e.g. `agent0`, `judge`. */
            agent: string;
            /** @description The agent's role name. */
            label: string;
            /** @description The stage of the protocol, e.g. `turn 1`. */
            stage: string;
            model: string;
            provider: string;
            temperature: number;
            /** @description Completion token limit. */
            maxTokens: number;
            /** @description Choices asked of this one request (OpenAI `n`), when more than 1. */
            n?: number;
            /** @description The chat messages, rendered: templates filled with the task, rubric and config. */
            messages: {
                /** @enum {string} */
                role: "system" | "user" | "assistant";
                content: string;
                name?: string;
            }[];
        };
        EstimateRequest: {
            /** @description Preset id from GET /v1/methods, as on POST /v1/evaluations. */
            preset?: string;
            /** @description Config overrides, as on POST /v1/evaluations. */
            config?: components["schemas"]["MethodConfigOverrides"];
            task?: components["schemas"]["Task"];
            items?: components["schemas"]["EstimateItem"][];
            budget?: components["schemas"]["Budget"];
            rubric?: components["schemas"]["RubricRef"];
            metadata?: components["schemas"]["Metadata"];
            /**
             * @description The service tier. Absent: the tenant's default, else the providers' default, else `standard`. A tier a provider of the judge does not offer is a 400 `tier_unsupported` naming the provider.
             * @enum {string}
             */
            tier?: "standard" | "flex" | "batch";
            /** @description Certified mode, as on POST /v1/evaluations: the calibration run (the stored rubric version's labelled items judged once by this judge, every stage of a cascade) is counted once, unless it is stored already for this judge and these labels: a request then reuses it and pays none of it (`assumptions` says which). */
            certify?: {
                agreement: number;
                risk: number;
            };
            /**
             * @description What a flex refusal leads to (tier `flex` only; default `standard`).
             * @enum {string}
             */
            flexFallback?: "standard" | "wait";
            /** @description Extra parts of the answer. `prompts`: the exact prompts one evaluation of the task (a batch: of its first item) sends first, rendered from the preset, config, templates and rubric, without an LLM call (`prompts` in the answer). */
            include?: "prompts"[];
            /** @description Accepted so that a batch body can be sent as it is; it does not change the estimate. */
            webhook?: {
                [key: string]: unknown;
            };
        };
        EstimateItem: {
            id?: string;
            task: components["schemas"]["Task"];
            metadata?: components["schemas"]["Metadata"];
        };
        ChatCompletion: {
            id: string;
            /** @enum {string} */
            object: "chat.completion";
            created: number;
            model: string;
            choices: {
                /** @enum {number} */
                index: 0;
                message: {
                    /** @enum {string} */
                    role: "assistant";
                    /** @description The JudgeVerdict as JSON text. */
                    content: string;
                    refusal: null;
                };
                /** @enum {string} */
                finish_reason: "stop";
                logprobs: null;
            }[];
            usage: components["schemas"]["ChatUsage"];
        };
        ChatUsage: {
            prompt_tokens: number;
            completion_tokens: number;
            total_tokens: number;
            prompt_tokens_details: {
                cached_tokens: number;
            };
        };
        /** @description One `data:` line of a streamed chat completion: a ChatCompletionChunk, or an OpenAIError that ends the stream (`verdict_timeout`, `evaluation_failed`, `evaluation_cancelled`, `internal`; no `[DONE]` follows it). A stream that reaches its verdict ends with `data: [DONE]`. */
        ChatCompletionStreamEvent: components["schemas"]["ChatCompletionChunk"] | components["schemas"]["OpenAIError"];
        ChatCompletionChunk: {
            id: string;
            /** @enum {string} */
            object: "chat.completion.chunk";
            created: number;
            model: string;
            choices: {
                /** @enum {number} */
                index: 0;
                delta: {
                    /** @enum {string} */
                    role?: "assistant";
                    content?: string;
                };
                finish_reason: "stop" | null;
                logprobs: null;
            }[];
            usage?: components["schemas"]["ChatUsage"] | null;
            tribunal?: {
                /** @enum {string} */
                event: "message";
                callId: string;
                agent: string;
                label: string;
                stage: string;
                ok: boolean;
            } | {
                /** @enum {string} */
                event: "verdict";
                verdict: components["schemas"]["JudgeVerdict"];
            };
        };
        OpenAIError: {
            error: {
                message: string;
                /** @enum {string} */
                type: "invalid_request_error" | "authentication_error" | "permission_error" | "rate_limit_error" | "timeout_error" | "server_error";
                code: ("invalid_json" | "unsupported_media_type" | "invalid_request" | "invalid_config" | "unknown_preset" | "unknown_method" | "task_kind_unsupported" | "byok_disabled" | "byok_not_supported" | "payload_too_large" | "unauthorized" | "not_found" | "method_not_allowed" | "idempotency_conflict" | "already_ended" | "unavailable" | "llm_not_configured" | "internal" | "forbidden" | "rate_limited" | "quota_exceeded" | "conflict" | "url_not_allowed" | "signing_secret_missing" | "limit_exceeded" | "endpoint_disabled" | "invalid_signature" | "mapping_failed" | "config_invalid" | "tier_unsupported" | "invalid_rubric" | "rubric_task_mismatch" | "rubric_unsupported" | "invalid_task" | "rubric_archived" | "agreement_below_minimum" | "rubric_steps_failed" | "rubric_steps_pending" | "auth_not_configured" | "unsupported_grader" | "labels_needed" | "calibration_pending") | ("verdict_timeout" | "evaluation_failed" | "evaluation_cancelled");
                param: string | null;
                issues?: {
                    path: string;
                    message: string;
                }[];
                requestId?: string;
                evaluationId?: string;
                links?: components["schemas"]["EvaluationLinks"];
                evaluationError?: {
                    code: string;
                    message: string;
                };
                resetAt?: string;
                labelsNeeded?: number;
            };
        };
        ChatCompletionRequest: {
            /** @description `tribunal/<preset>` or `tribunal/<preset>@<model>` (GET /v1/models). */
            model: string;
            /** @description Exactly one `user` message holding the task: a JSON Task or plain text with markers (docs/integrations.md). */
            messages: components["schemas"]["ChatRequestMessage"][];
            /** @description Stream the debate as `chat.completion.chunk` server-sent events, then the verdict. */
            stream?: boolean | null;
            stream_options?: {
                /** @description Send a last chunk with the whole debate's usage. */
                include_usage?: boolean;
            } | null;
            /** @description Only 1: a request is one evaluation (send n requests for n verdicts). */
            n?: 1 | null;
            /** @description `text` or `json_object`: the answer is always a JSON object (`json_schema` is refused: the verdict has its own schema). */
            response_format?: {
                /** @enum {string} */
                type: "text" | "json_object";
            } | null;
            /** @description Stored with the evaluation and shown by GET /v1/evaluations/{id}. */
            metadata?: components["schemas"]["Metadata"] | null;
            /** @description Accepted, no effect: each agent's temperature is the preset's (the paper's setting). Listed in `Tribunal-Unused-Parameters`. */
            temperature?: number | null;
            /** @description Accepted, no effect: the preset fixes its sampling. Listed in `Tribunal-Unused-Parameters`. */
            top_p?: number | null;
            /** @description Accepted, no effect: the preset fixes its sampling. Listed in `Tribunal-Unused-Parameters`. */
            presence_penalty?: number | null;
            /** @description Accepted, no effect: the preset fixes its sampling. Listed in `Tribunal-Unused-Parameters`. */
            frequency_penalty?: number | null;
            /** @description Accepted (at least 1), no effect: the preset fixes its agents' token limits. Listed in `Tribunal-Unused-Parameters`. */
            max_tokens?: number | null;
            /** @description As `max_tokens`. */
            max_completion_tokens?: number | null;
            /**
             * @description Tribunal's own parameter (OpenAI SDKs send it through `extra_body`): the verdict cache, as `cache` of POST /v1/evaluations (`use` by default: the same task to the same model answers from the cache with 0 LLM calls).
             * @enum {string}
             */
            cache?: "use" | "refresh" | "off";
        };
        ChatRequestMessage: {
            /** @enum {string} */
            role: "system" | "developer" | "user" | "assistant" | "tool" | "function";
            content: string | ({
                type: string;
                text?: string;
            } & {
                [key: string]: unknown;
            })[] | null;
            name?: string;
        };
        ModelList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["Model"][];
        };
        Model: {
            id: string;
            /** @enum {string} */
            object: "model";
            created: number;
            /** @enum {string} */
            owned_by: "tribunal";
            tribunal: {
                preset: string;
                method: string;
                /** @enum {string} */
                taskKind: "pairwise" | "pointwise" | "trajectory";
                description: string;
                paper: string;
            };
        };
        Eval: {
            /** @enum {string} */
            object: "eval";
            id: string;
            name: string;
            /** @description Unix seconds. */
            created_at: number;
            data_source_config: components["schemas"]["EvalCustomDataSourceConfig"];
            testing_criteria: (components["schemas"]["StringCheckGrader"] | components["schemas"]["TextSimilarityGrader"] | components["schemas"]["LabelModelGrader"] | components["schemas"]["ScoreModelGrader"] | components["schemas"]["PythonGrader"] | components["schemas"]["MultiGrader"])[];
            metadata: components["schemas"]["EvalMetadata"] | null;
        };
        EvalCustomDataSourceConfig: {
            /** @enum {string} */
            type: "custom";
            schema: {
                [key: string]: unknown;
            };
        };
        StringCheckGrader: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "string_check";
            /** @description The grader's name; results are reported under it. */
            name: string;
            /** @description Text with `{{item.<field>}}`, `{{sample.output_text}}` or `{{sample.output_json}}` templates. */
            input: string;
            /** @description Text with `{{item.<field>}}`, `{{sample.output_text}}` or `{{sample.output_json}}` templates. */
            reference: string;
            /** @enum {string} */
            operation: "eq" | "ne" | "like" | "ilike";
        };
        TextSimilarityGrader: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "text_similarity";
            /** @description The grader's name; results are reported under it. */
            name: string;
            /** @description Text with `{{item.<field>}}`, `{{sample.output_text}}` or `{{sample.output_json}}` templates. */
            input: string;
            /** @description Text with `{{item.<field>}}`, `{{sample.output_text}}` or `{{sample.output_json}}` templates. */
            reference: string;
            /** @enum {string} */
            evaluation_metric: "cosine" | "fuzzy_match" | "bleu" | "gleu" | "meteor" | "rouge_1" | "rouge_2" | "rouge_3" | "rouge_4" | "rouge_5" | "rouge_l";
            /** @description Score at or above which the item passes, in [0, 1]. Required in an eval's testing criteria, not inside a `multi` grader. */
            pass_threshold?: number;
        };
        LabelModelGrader: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "label_model";
            /** @description The grader's name; results are reported under it. */
            name: string;
            /** @description The model that grades: a model of the deployment's LLM, or a Tribunal judge (`tribunal/<preset>`, `tribunal/<preset>@<model>`). */
            model: string;
            input: components["schemas"]["GraderMessage"][];
            labels: string[];
            passing_labels: string[];
        };
        GraderMessage: {
            /** @enum {string} */
            role: "user" | "assistant" | "system" | "developer";
            content: string | {
                /** @enum {string} */
                type: "input_text";
                text: string;
            } | {
                /** @enum {string} */
                type: "output_text";
                text: string;
            } | {
                /** @enum {string} */
                type: "input_image";
                image_url: string;
                detail?: string;
            } | {
                /** @enum {string} */
                type: "input_audio";
                input_audio: {
                    data: string;
                    format: string;
                };
            } | (string | {
                /** @enum {string} */
                type: "input_text";
                text: string;
            } | {
                /** @enum {string} */
                type: "output_text";
                text: string;
            } | {
                /** @enum {string} */
                type: "input_image";
                image_url: string;
                detail?: string;
            } | {
                /** @enum {string} */
                type: "input_audio";
                input_audio: {
                    data: string;
                    format: string;
                };
            })[];
            /** @enum {string} */
            type?: "message";
        };
        ScoreModelGrader: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "score_model";
            /** @description The grader's name; results are reported under it. */
            name: string;
            /** @description The model that grades: a model of the deployment's LLM, or a Tribunal judge (`tribunal/<preset>`, `tribunal/<preset>@<model>`). */
            model: string;
            input: components["schemas"]["GraderMessage"][];
            /** @description `[min, max]` of the score; default `[0, 1]`. */
            range?: number[];
            pass_threshold?: number;
            sampling_params?: {
                max_completions_tokens?: number | null;
                /** @enum {string|null} */
                reasoning_effort?: "none" | "minimal" | "low" | "medium" | "high" | "xhigh" | null;
                seed?: number | null;
                temperature?: number | null;
                top_p?: number | null;
            };
        };
        PythonGrader: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "python";
            /** @description The grader's name; results are reported under it. */
            name: string;
            source: string;
            image_tag?: string;
            pass_threshold?: number;
        };
        MultiGrader: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "multi";
            /** @description The grader's name; results are reported under it. */
            name: string;
            /** @description The graders by the name `calculate_output` uses for their scores. */
            graders: {
                [key: string]: components["schemas"]["StringCheckGrader"] | components["schemas"]["TextSimilarityGrader"] | components["schemas"]["LabelModelGrader"] | components["schemas"]["ScoreModelGrader"] | components["schemas"]["PythonGrader"];
            };
            /** @description `+ - * / ^`, parentheses, numbers, the graders' names and `min max abs floor ceil exp sqrt log`. */
            calculate_output: string;
            pass_threshold?: number;
        };
        EvalMetadata: {
            [key: string]: string;
        };
        CreateEvalRequest: {
            name?: string;
            metadata?: components["schemas"]["EvalMetadata"] | null;
            data_source_config: components["schemas"]["EvalDataSourceConfigInput"];
            testing_criteria: (components["schemas"]["StringCheckGrader"] | components["schemas"]["TextSimilarityGrader"] | components["schemas"]["LabelModelGrader"] | components["schemas"]["ScoreModelGrader"] | components["schemas"]["PythonGrader"] | components["schemas"]["MultiGrader"])[];
        };
        EvalDataSourceConfigInput: {
            /** @enum {string} */
            type: "custom" | "logs" | "stored_completions";
            /** @description JSON Schema of a data source item (`custom`); templates read its properties as `{{item.<name>}}`. */
            item_schema?: {
                [key: string]: unknown;
            };
            /** @description Whether runs generate a sample (`{{sample.output_text}}`); default false. */
            include_sample_schema?: boolean;
            metadata?: {
                [key: string]: unknown;
            };
        };
        EvalList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["Eval"][];
            first_id: string | null;
            last_id: string | null;
            has_more: boolean;
        };
        UpdateEvalRequest: {
            name?: string;
            metadata?: components["schemas"]["EvalMetadata"] | null;
        };
        EvalDeleted: {
            /** @enum {string} */
            object: "eval.deleted";
            /** @enum {boolean} */
            deleted: true;
            eval_id: string;
        };
        EvalRun: {
            /** @enum {string} */
            object: "eval.run";
            id: string;
            eval_id: string;
            name: string;
            /** @enum {string} */
            status: "queued" | "in_progress" | "completed" | "canceled" | "failed";
            created_at: number;
            model: string | null;
            data_source: {
                [key: string]: unknown;
            };
            metadata: components["schemas"]["EvalMetadata"] | null;
            error: components["schemas"]["EvalAPIError"] | null;
            /** @description The viewer's page of the run. */
            report_url: string;
            service_tier: components["schemas"]["Tier"];
            cache: components["schemas"]["EvalRunCache"];
            /** @description What the request asked for holds, but not as one may expect (e.g. `tier_price_missing`: a tier billed at the standard price). Present only on the answer to the request that created the resource, and only with a warning. */
            warnings?: components["schemas"]["Warning"][];
            /** @description Tribunal's: with `certify`, the guarantee of the certified judge grader (agreement and risk asked, the coverage the calibration reached, how many labelled items it calibrated on), or each one by grader name when several are; null otherwise. */
            guarantee: components["schemas"]["Guarantee"] | {
                [key: string]: components["schemas"]["Guarantee"];
            } | null;
            result_counts: {
                total: number;
                passed: number;
                failed: number;
                errored: number;
            };
            per_testing_criteria_results: {
                testing_criteria: string;
                passed: number;
                failed: number;
            }[];
            per_model_usage: {
                model_name: string;
                invocation_count: number;
                prompt_tokens: number;
                completion_tokens: number;
                total_tokens: number;
                cached_tokens: number;
            }[];
        };
        EvalAPIError: {
            code: string;
            message: string;
        };
        /** @description Tribunal's verdict cache in this run (see `cache` at create). */
        EvalRunCache: {
            /**
             * @description The request's `cache`, or `bypass` (unset, and a model grader samples above temperature 0).
             * @enum {string}
             */
            mode: "use" | "refresh" | "off" | "bypass";
            /** @description Model grader calls answered from the cache: no LLM call, $0. */
            hits: number;
            /** @description What those calls had cost when they were made (USD): saved by this run. */
            saved_usd: number;
        };
        CreateEvalRunRequest: {
            data_source: components["schemas"]["CreateEvalJSONLRunDataSource"] | components["schemas"]["CreateEvalCompletionsRunDataSource"] | components["schemas"]["CreateEvalResponsesRunDataSource"];
            name?: string;
            metadata?: components["schemas"]["EvalMetadata"] | null;
            /**
             * @description Tribunal's: the service tier of the run's model calls (the sampler's and the model graders'). Absent: the tenant's default, else the providers' default, else `standard`. A tier the deployment's provider does not offer is a 400 `tier_unsupported` naming `service_tier`. At `batch` the calls go through the provider's Batch API in waves, and the run ends in the provider's turnaround.
             * @enum {string}
             */
            service_tier?: "standard" | "flex" | "batch";
            /**
             * @description Tribunal's: the verdict cache for the run's model graders. `use` (default): a grader call this tenant made before with the same model, messages and parameters, at most VERDICT_CACHE_TTL_DAYS old, is answered from the cache (no LLM call, $0); else its answer is cached. `refresh`: called anew, and the answer replaces the cached one. `off`: neither. Unset, a grader sampling above temperature 0 bypasses the cache. Samples are never cached.
             * @enum {string}
             */
            cache?: "use" | "refresh" | "off";
            /** @description Tribunal's: certified mode (Trust or Escalate) for the eval's Tribunal judge graders. Each model grader must be a judge (`tribunal/<preset>`) whose task names a stored pairwise rubric (`"rubric": "rb_…#tag"`; else a 400 naming `certify`); it is calibrated on the rubric version's labelled items when the run is created (`503 calibration_pending` while the judge judges them, nothing created: send it again; too few labels is `409 labels_needed` with `error.labelsNeeded`). Its verdicts are then answered only where the calibrated threshold holds: each result carries `certified`, and an item whose judge abstained is `errored`. `string_check` and `text_similarity` graders are exact and run as they are. */
            certify?: {
                agreement: number;
                risk: number;
            };
        };
        CreateEvalJSONLRunDataSource: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "jsonl";
            source: components["schemas"]["EvalRunSource"];
        };
        EvalRunSource: {
            /** @enum {string} */
            type: "file_content";
            content: components["schemas"]["EvalSourceLine"][];
        } | {
            /** @enum {string} */
            type: "file_id";
            id: string;
        } | ({
            /** @enum {string} */
            type: "stored_completions";
        } & {
            [key: string]: unknown;
        });
        EvalSourceLine: {
            item: {
                [key: string]: unknown;
            };
            sample?: {
                [key: string]: unknown;
            };
        };
        CreateEvalCompletionsRunDataSource: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "completions";
            source: components["schemas"]["EvalRunSource"];
            model?: string;
            input_messages?: {
                /** @enum {string} */
                type: "template";
                template: components["schemas"]["GraderMessage"][];
            } | {
                /** @enum {string} */
                type: "item_reference";
                item_reference: string;
            };
            sampling_params?: components["schemas"]["EvalCompletionsSamplingParams"];
        };
        EvalCompletionsSamplingParams: {
            max_completion_tokens?: number;
            seed?: number;
            temperature?: number;
            top_p?: number;
            /** @enum {string|null} */
            reasoning_effort?: "none" | "minimal" | "low" | "medium" | "high" | "xhigh" | null;
            tools?: unknown[];
            response_format?: {
                /** @enum {string} */
                type: "text";
            } | {
                /** @enum {string} */
                type: "json_object";
            } | {
                /** @enum {string} */
                type: "json_schema";
                json_schema: {
                    name: string;
                    schema?: {
                        [key: string]: unknown;
                    };
                    strict?: boolean | null;
                    description?: string;
                };
            };
        };
        CreateEvalResponsesRunDataSource: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "responses";
            source: components["schemas"]["EvalResponsesRunSource"];
            model?: string;
            input_messages?: {
                /** @enum {string} */
                type: "template";
                template: components["schemas"]["GraderMessage"][];
            } | {
                /** @enum {string} */
                type: "item_reference";
                item_reference: string;
            };
            sampling_params?: components["schemas"]["EvalResponsesSamplingParams"];
        };
        EvalResponsesRunSource: {
            /** @enum {string} */
            type: "file_content";
            content: components["schemas"]["EvalSourceLine"][];
        } | {
            /** @enum {string} */
            type: "file_id";
            id: string;
        } | ({
            /** @enum {string} */
            type: "responses";
        } & {
            [key: string]: unknown;
        });
        EvalResponsesSamplingParams: {
            max_completion_tokens?: number;
            seed?: number;
            temperature?: number;
            top_p?: number;
            /** @enum {string|null} */
            reasoning_effort?: "none" | "minimal" | "low" | "medium" | "high" | "xhigh" | null;
            tools?: unknown[];
            text?: {
                format?: {
                    /** @enum {string} */
                    type: "text";
                } | {
                    /** @enum {string} */
                    type: "json_object";
                } | {
                    /** @enum {string} */
                    type: "json_schema";
                    name: string;
                    schema?: {
                        [key: string]: unknown;
                    };
                    strict?: boolean | null;
                    description?: string;
                };
            };
        };
        EvalRunList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["EvalRun"][];
            first_id: string | null;
            last_id: string | null;
            has_more: boolean;
        };
        EvalRunDeleted: {
            /** @enum {string} */
            object: "eval.run.deleted";
            /** @enum {boolean} */
            deleted: true;
            run_id: string;
        };
        EvalRunOutputItemList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["EvalRunOutputItem"][];
            first_id: string | null;
            last_id: string | null;
            has_more: boolean;
        };
        EvalRunOutputItem: {
            /** @enum {string} */
            object: "eval.run.output_item";
            id: string;
            run_id: string;
            eval_id: string;
            created_at: number;
            /** @enum {string} */
            status: "pass" | "fail" | "error";
            datasource_item_id: number;
            datasource_item: {
                [key: string]: unknown;
            };
            results: ({
                name: string;
                type: string;
                score: number;
                passed: boolean;
                sample: {
                    [key: string]: unknown;
                } | null;
                /** @description Tribunal's, in a certified run, on a judge grader's result: true when its verdict is certified (its stage reached the calibrated threshold), false when the judge abstained (the item is then `error`) or failed. */
                certified?: boolean;
                /** @description Tribunal's, with `certified`: `answered`, `escalated` (a later cascade stage), `abstained` or `error`. */
                certification?: {
                    /** @enum {string} */
                    outcome: "answered" | "escalated" | "abstained" | "error";
                    stage: number | null;
                };
                /** @description Why the grader gave no score of its own (score 0): OpenAI's kinds, and Tribunal's `model_grader_abstained` (a certified judge abstained: its confidence below the calibrated threshold; nothing failed). */
                error?: {
                    /** @enum {string} */
                    kind: "model_grader_server_error" | "model_grader_abstained" | "model_grader_parse_error" | "formula_parse_error" | "invalid_variable_error" | "other_error";
                    message: string;
                };
            } & {
                [key: string]: unknown;
            })[];
            /** @description The model's sample (`completions`, `responses`), or a `jsonl` line's own: its text as `output`'s one assistant message (empty when the line gives none), `model` and `finish_reason` as the line gives them (else ""), no `input` or `usage`, and OpenAI's default parameters. Never null, as OpenAI's API and SDK have it. */
            sample: {
                input: {
                    role: string;
                    content: string;
                }[];
                output: {
                    role: string;
                    content: string;
                }[];
                model: string;
                finish_reason: string;
                usage: {
                    prompt_tokens: number;
                    completion_tokens: number;
                    total_tokens: number;
                    cached_tokens: number;
                };
                error: components["schemas"]["EvalAPIError"] | null;
                temperature: number;
                max_completion_tokens: number;
                top_p: number;
                seed: number;
            };
        };
        GraderRunResponse: {
            reward: number;
            sub_rewards: {
                [key: string]: unknown;
            };
            model_grader_token_usage_per_model: {
                [key: string]: unknown;
            };
            metadata: {
                name: string;
                type: string;
                execution_time: number;
                sampled_model_name: string | null;
                scores: {
                    [key: string]: unknown;
                };
                token_usage: number | null;
                errors: {
                    formula_parse_error: boolean;
                    invalid_variable_error: boolean;
                    model_grader_parse_error: boolean;
                    model_grader_refusal_error: boolean;
                    model_grader_server_error: boolean;
                    model_grader_server_error_details: string | null;
                    other_error: boolean;
                    python_grader_runtime_error: boolean;
                    python_grader_runtime_error_details: string | null;
                    python_grader_server_error: boolean;
                    python_grader_server_error_type: string | null;
                    sample_parse_error: boolean;
                    truncated_observation_error: boolean;
                    unresponsive_reward_error: boolean;
                };
            };
        };
        GraderRunRequest: {
            grader: components["schemas"]["StringCheckGrader"] | components["schemas"]["TextSimilarityGrader"] | components["schemas"]["LabelModelGrader"] | components["schemas"]["ScoreModelGrader"] | components["schemas"]["PythonGrader"] | components["schemas"]["MultiGrader"];
            /** @description The sample `{{sample.output_text}}` reads. */
            model_sample: string;
            /** @description The item `{{item.*}}` reads. */
            item?: {
                [key: string]: unknown;
            };
        };
        GraderValidateResponse: {
            grader: components["schemas"]["StringCheckGrader"] | components["schemas"]["TextSimilarityGrader"] | components["schemas"]["LabelModelGrader"] | components["schemas"]["ScoreModelGrader"] | components["schemas"]["PythonGrader"] | components["schemas"]["MultiGrader"];
        };
        GraderValidateRequest: {
            grader: components["schemas"]["StringCheckGrader"] | components["schemas"]["TextSimilarityGrader"] | components["schemas"]["LabelModelGrader"] | components["schemas"]["ScoreModelGrader"] | components["schemas"]["PythonGrader"] | components["schemas"]["MultiGrader"];
        };
        FileObject: {
            id: string;
            /** @enum {string} */
            object: "file";
            bytes: number;
            created_at: number;
            filename: string;
            /** @enum {string} */
            purpose: "evals";
            /** @enum {string} */
            status: "processed";
        };
        FileUpload: {
            /**
             * Format: binary
             * @description The JSONL file: one JSON object per line.
             */
            file: string;
            /**
             * @description Only `evals` is accepted.
             * @enum {string}
             */
            purpose: "assistants" | "batch" | "fine-tune" | "vision" | "user_data" | "evals";
        };
        FileList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["FileObject"][];
            first_id: string | null;
            last_id: string | null;
            has_more: boolean;
        };
        FileDeleted: {
            id: string;
            /** @enum {string} */
            object: "file";
            /** @enum {boolean} */
            deleted: true;
        };
        CreatedWebhookEndpoint: {
            id: string;
            url: string;
            events: components["schemas"]["WebhookEventType"][] | null;
            description: string | null;
            enabled: boolean;
            disabledReason: string | null;
            disabledAt: string | null;
            createdAt: string;
            updatedAt: string;
            /**
             * @description The signing secret (`whsec_` + base64), shown only in this answer: store it now. Verify deliveries with it (Standard Webhooks).
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
             */
            secret: string;
        };
        /**
         * @description `evaluation.succeeded` | `evaluation.failed` | `evaluation.cancelled`: an evaluation ended; `batch.completed`: every item of a batch ended; `meta_evaluation.completed`: a meta-evaluation's report is ready; `comparison.completed`: a comparison's statistics and gate are ready; `eval.run.succeeded` | `eval.run.failed` | `eval.run.canceled`: an Evals run ended (OpenAI's names).
         * @enum {string}
         */
        WebhookEventType: "evaluation.succeeded" | "evaluation.failed" | "evaluation.cancelled" | "batch.completed" | "meta_evaluation.completed" | "comparison.completed" | "eval.run.succeeded" | "eval.run.failed" | "eval.run.canceled";
        CreateWebhookEndpointRequest: {
            /**
             * @description An `https` URL of a public host. Refused with 400 `url_not_allowed` naming the rule: other schemes (plain `http` only to loopback when the deployment sets `WEBHOOK_ALLOW_LOOPBACK=true`), credentials in the URL, IP literals in private, loopback, link-local, CGNAT, multicast, reserved or cloud-metadata ranges (any IPv4 notation, IPv4-mapped IPv6 included).
             * @example https://hooks.example.com/tribunal
             */
            url: string;
            /**
             * @description Event types to receive; absent or null = every type.
             * @example [
             *       "evaluation.succeeded",
             *       "evaluation.failed"
             *     ]
             */
            events?: components["schemas"]["WebhookEventType"][];
            description?: string;
        };
        WebhookEndpointList: {
            data: components["schemas"]["WebhookEndpoint"][];
        };
        WebhookEndpoint: {
            id: string;
            url: string;
            events: components["schemas"]["WebhookEventType"][] | null;
            description: string | null;
            enabled: boolean;
            disabledReason: string | null;
            disabledAt: string | null;
            createdAt: string;
            updatedAt: string;
        };
        UpdateWebhookEndpointRequest: {
            /**
             * @description An `https` URL of a public host. Refused with 400 `url_not_allowed` naming the rule: other schemes (plain `http` only to loopback when the deployment sets `WEBHOOK_ALLOW_LOOPBACK=true`), credentials in the URL, IP literals in private, loopback, link-local, CGNAT, multicast, reserved or cloud-metadata ranges (any IPv4 notation, IPv4-mapped IPv6 included).
             * @example https://hooks.example.com/tribunal
             */
            url?: string;
            /**
             * @description Event types to receive; absent or null = every type.
             * @example [
             *       "evaluation.succeeded",
             *       "evaluation.failed"
             *     ]
             */
            events?: components["schemas"]["WebhookEventType"][] | null;
            description?: string | null;
            /** @description `true` re-enables an endpoint disabled by a 410 or by hand; `false` disables it. */
            enabled?: boolean;
        };
        RotatedSecret: {
            id: string;
            /**
             * @description The signing secret (`whsec_` + base64), shown only in this answer: store it now. Verify deliveries with it (Standard Webhooks).
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
             */
            secret: string;
            previousSecretExpiresAt: string | null;
        };
        WebhookDeliveryList: {
            data: components["schemas"]["WebhookDelivery"][];
            /** @description Pass as `cursor` for the next page; null on the last. */
            nextCursor: string | null;
        };
        WebhookDelivery: {
            id: string;
            eventId: string;
            eventType: components["schemas"]["WebhookEventType"];
            subjectId: string;
            endpointId: string | null;
            url: string | null;
            status: components["schemas"]["WebhookDeliveryStatus"];
            attempts: number;
            nextAttemptAt: string | null;
            lastStatusCode: number | null;
            lastError: string | null;
            deliveredAt: string | null;
            createdAt: string;
            attemptLog: components["schemas"]["WebhookDeliveryAttempt"][];
        };
        /** @enum {string} */
        WebhookDeliveryStatus: "pending" | "delivered" | "failed";
        WebhookDeliveryAttempt: {
            attempt: number;
            at: string;
            statusCode: number | null;
            error: string | null;
            durationMs: number;
            responseExcerpt: string | null;
        };
        WebhookSigningSecretStatus: {
            exists: boolean;
            createdAt: string | null;
            previousSecretExpiresAt: string | null;
        };
        WebhookSigningSecret: {
            /**
             * @description The signing secret (`whsec_` + base64), shown only in this answer: store it now. Verify deliveries with it (Standard Webhooks).
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
             */
            secret: string;
            createdAt: string;
            previousSecretExpiresAt: string | null;
        };
        CreatedTrigger: {
            id: string;
            url: string;
            description: string | null;
            preset: string | null;
            config: {
                [key: string]: unknown;
            } | null;
            mapping: components["schemas"]["TriggerMapping"];
            filter: components["schemas"]["TriggerFilter"] | null;
            webhook: components["schemas"]["OneOffWebhook"] | null;
            /**
             * @description The verdict cache mode of its evaluations; null: not set (the default, `CacheMode`).
             * @enum {string|null}
             */
            cache: "use" | "refresh" | "off" | null;
            rubric: string | {
                /** @enum {string} */
                kind: "pairwise" | "pointwise";
                criteria: string;
                scale?: {
                    min: number;
                    max: number;
                    levels?: {
                        score: number;
                        text: string;
                    }[];
                };
                aspects?: {
                    name: string;
                    criteria: string;
                    scale?: {
                        min: number;
                        max: number;
                        levels?: {
                            score: number;
                            text: string;
                        }[];
                    };
                    /** @default 1 */
                    weight?: number;
                    evaluationSteps?: string;
                }[];
                evaluationSteps?: string;
                autoSteps?: boolean;
                thresholds?: {
                    score?: number[];
                    aspects?: {
                        [key: string]: number[];
                    };
                };
                /** @description Accepted so that a rubric body can be sent as is; not used. */
                name?: string;
                /** @description Accepted (and checked) so that a rubric body can be sent as is; not run. */
                examples?: {
                    task: {
                        /** @enum {string} */
                        kind: "pairwise";
                        question?: string;
                        messages?: ({
                            /** @enum {string} */
                            role: "user";
                            content: string;
                        } | {
                            /** @enum {string} */
                            role: "assistant";
                            content?: string;
                            answerA?: string;
                            answerB?: string;
                            reference?: string;
                        })[];
                        answerA: string;
                        answerB: string;
                        reference?: string;
                    } | {
                        /** @enum {string} */
                        kind: "pointwise";
                        source?: string;
                        messages?: ({
                            /** @enum {string} */
                            role: "user";
                            content: string;
                        } | {
                            /** @enum {string} */
                            role: "assistant";
                            content: string;
                        })[];
                        context?: string;
                        output: string;
                        reference?: string;
                        aspect?: {
                            name: string;
                            description?: string;
                            scale: {
                                min: number;
                                max: number;
                            };
                        };
                        aspects?: {
                            name: string;
                            description?: string;
                            scale: {
                                min: number;
                                max: number;
                            };
                            weight?: number;
                        }[];
                    } | {
                        /** @enum {string} */
                        kind: "trajectory";
                        request?: string;
                        messages?: ({
                            /** @enum {string} */
                            role: "user";
                            content: string;
                        } | {
                            /** @enum {string} */
                            role: "assistant";
                            content: string;
                        })[];
                        steps: {
                            /** @enum {string} */
                            type: "llm" | "tool" | "message" | "error";
                            spanId?: string;
                            name?: string;
                            input?: string;
                            output?: string;
                            error?: string;
                        }[];
                        finalAnswer?: string;
                        aspects?: {
                            name: string;
                            description?: string;
                            scale: {
                                min: number;
                                max: number;
                            };
                            weight?: number;
                        }[];
                    };
                    expected: ("A" | "B" | "tie") | number;
                    expectedAspects?: {
                        [key: string]: number;
                    };
                    note?: string;
                }[];
            } | null;
            createdAt: string;
            updatedAt: string;
            /**
             * @description The secret the sender signs with (Standard Webhooks, or as a GitHub webhook secret), shown only in this answer.
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
             */
            secret: string;
        };
        TriggerMapping: {
            task: components["schemas"]["TaskMapping"];
            metadata?: {
                [key: string]: components["schemas"]["MappingRule"];
            };
        };
        /** @description What each incoming request becomes: `kind` `pairwise` or `pointwise` and a rule per task field (see `Task`): one evaluation; or `kind` `comparison` and a rule per field of `POST /v1/comparisons` (values are JSON, e.g. `"/candidates"`): one comparison, whose `comparison.completed` carries the gate. */
        TaskMapping: {
            /** @enum {string} */
            kind: "pairwise";
            question: components["schemas"]["MappingRule"];
            answerA: components["schemas"]["MappingRule"];
            answerB: components["schemas"]["MappingRule"];
            reference?: components["schemas"]["MappingRule"];
        } | {
            /** @enum {string} */
            kind: "pointwise";
            source: components["schemas"]["MappingRule"];
            context?: components["schemas"]["MappingRule"];
            output: components["schemas"]["MappingRule"];
            aspect: components["schemas"]["MappingRule"];
        } | {
            /** @enum {string} */
            kind: "comparison";
            /** @description The candidate names (a JSON array). */
            candidates: string | {
                template: string;
            } | {
                /** @description Any JSON value. */
                value?: unknown;
            };
            /** @description The items (a JSON array of `ComparisonItem`), each with every candidate's output. */
            items: string | {
                template: string;
            } | {
                /** @description Any JSON value. */
                value?: unknown;
            };
            /** @description `"all-pairs"` or `{"baseline": …}`; default `"all-pairs"`. */
            design?: string | {
                template: string;
            } | {
                /** @description Any JSON value. */
                value?: unknown;
            };
            /** @description The CI gate (`ComparisonGate`), e.g. `{"value": {"candidate": "new", "baseline": "prod"}}`. */
            gate?: string | {
                template: string;
            } | {
                /** @description Any JSON value. */
                value?: unknown;
            };
        };
        /** @description Where a field comes from: a JSON Pointer (`"/outputs/0/text"`); `{"template": "Q: {{/issue/title}}"}` (placeholders hold pointers; numbers and booleans are inserted as text, objects and arrays as JSON); or `{"value": …}`, a constant. */
        MappingRule: string | {
            template: string;
        } | {
            /** @description Any JSON value. */
            value?: unknown;
        };
        /** @description Every condition must hold, else the request is acknowledged with 200 `{"ignored": true}` and nothing is created. */
        TriggerFilter: components["schemas"]["TriggerFilterCondition"][];
        TriggerFilterCondition: {
            /**
             * @description A JSON Pointer (RFC 6901) into the incoming JSON.
             * @example /pull_request/title
             */
            pointer: string;
            /** @description Any JSON value. */
            equals?: unknown;
        } | {
            /**
             * @description A JSON Pointer (RFC 6901) into the incoming JSON.
             * @example /pull_request/title
             */
            pointer: string;
            in: unknown[];
        } | {
            /**
             * @description A JSON Pointer (RFC 6901) into the incoming JSON.
             * @example /pull_request/title
             */
            pointer: string;
            exists: boolean;
        };
        CreateTriggerRequest: {
            /** @description Preset id from GET /v1/methods. Its config is the base the `config` overrides merge into. */
            preset?: string;
            /** @description Overrides deep-merged over the preset's config (objects merge, arrays and scalars replace), or a full config with `method` when no preset is given. The result must satisfy MethodConfig. */
            config?: components["schemas"]["MethodConfigOverrides"];
            mapping: components["schemas"]["TriggerMapping"];
            filter?: components["schemas"]["TriggerFilter"];
            webhook?: components["schemas"]["OneOffWebhook"];
            /**
             * @description The verdict cache for each evaluation it creates (`CacheMode`): a sender's repeated event for an unchanged candidate gets the cached verdict.
             * @enum {string}
             */
            cache?: "use" | "refresh" | "off";
            description?: string;
            rubric?: components["schemas"]["RubricRef"];
        };
        TriggerList: {
            data: components["schemas"]["Trigger"][];
        };
        Trigger: {
            id: string;
            url: string;
            description: string | null;
            preset: string | null;
            config: {
                [key: string]: unknown;
            } | null;
            mapping: components["schemas"]["TriggerMapping"];
            filter: components["schemas"]["TriggerFilter"] | null;
            webhook: components["schemas"]["OneOffWebhook"] | null;
            /**
             * @description The verdict cache mode of its evaluations; null: not set (the default, `CacheMode`).
             * @enum {string|null}
             */
            cache: "use" | "refresh" | "off" | null;
            rubric: string | {
                /** @enum {string} */
                kind: "pairwise" | "pointwise";
                criteria: string;
                scale?: {
                    min: number;
                    max: number;
                    levels?: {
                        score: number;
                        text: string;
                    }[];
                };
                aspects?: {
                    name: string;
                    criteria: string;
                    scale?: {
                        min: number;
                        max: number;
                        levels?: {
                            score: number;
                            text: string;
                        }[];
                    };
                    /** @default 1 */
                    weight?: number;
                    evaluationSteps?: string;
                }[];
                evaluationSteps?: string;
                autoSteps?: boolean;
                thresholds?: {
                    score?: number[];
                    aspects?: {
                        [key: string]: number[];
                    };
                };
                /** @description Accepted so that a rubric body can be sent as is; not used. */
                name?: string;
                /** @description Accepted (and checked) so that a rubric body can be sent as is; not run. */
                examples?: {
                    task: {
                        /** @enum {string} */
                        kind: "pairwise";
                        question?: string;
                        messages?: ({
                            /** @enum {string} */
                            role: "user";
                            content: string;
                        } | {
                            /** @enum {string} */
                            role: "assistant";
                            content?: string;
                            answerA?: string;
                            answerB?: string;
                            reference?: string;
                        })[];
                        answerA: string;
                        answerB: string;
                        reference?: string;
                    } | {
                        /** @enum {string} */
                        kind: "pointwise";
                        source?: string;
                        messages?: ({
                            /** @enum {string} */
                            role: "user";
                            content: string;
                        } | {
                            /** @enum {string} */
                            role: "assistant";
                            content: string;
                        })[];
                        context?: string;
                        output: string;
                        reference?: string;
                        aspect?: {
                            name: string;
                            description?: string;
                            scale: {
                                min: number;
                                max: number;
                            };
                        };
                        aspects?: {
                            name: string;
                            description?: string;
                            scale: {
                                min: number;
                                max: number;
                            };
                            weight?: number;
                        }[];
                    } | {
                        /** @enum {string} */
                        kind: "trajectory";
                        request?: string;
                        messages?: ({
                            /** @enum {string} */
                            role: "user";
                            content: string;
                        } | {
                            /** @enum {string} */
                            role: "assistant";
                            content: string;
                        })[];
                        steps: {
                            /** @enum {string} */
                            type: "llm" | "tool" | "message" | "error";
                            spanId?: string;
                            name?: string;
                            input?: string;
                            output?: string;
                            error?: string;
                        }[];
                        finalAnswer?: string;
                        aspects?: {
                            name: string;
                            description?: string;
                            scale: {
                                min: number;
                                max: number;
                            };
                            weight?: number;
                        }[];
                    };
                    expected: ("A" | "B" | "tie") | number;
                    expectedAspects?: {
                        [key: string]: number;
                    };
                    note?: string;
                }[];
            } | null;
            createdAt: string;
            updatedAt: string;
        };
        HookIgnored: {
            /** @enum {boolean} */
            ignored: true;
            reason: string;
        };
        HookAccepted: {
            evaluationId: string;
            status: components["schemas"]["EvaluationStatus"];
            replayed: boolean;
            links: components["schemas"]["EvaluationLinks"];
        };
        HookComparisonAccepted: {
            comparisonId: string;
            /** @enum {string} */
            status: "running" | "cancelling" | "completed" | "cancelled";
            replayed: boolean;
            links: {
                self: string;
                results: string;
                cancel: string;
                batch: string;
            };
        };
        OtlpExportTraceServiceResponse: {
            partialSuccess?: {
                /** @description Spans rejected (an int64, as OTLP/JSON writes it). */
                rejectedSpans: string;
                errorMessage: string;
            };
        };
        OtlpStatus: {
            /** @description gRPC status code of the HTTP status: 3 INVALID_ARGUMENT, 5 NOT_FOUND, 7 PERMISSION_DENIED, 8 RESOURCE_EXHAUSTED, 13 INTERNAL, 14 UNAVAILABLE, 16 UNAUTHENTICATED. */
            code: number;
            message: string;
            /** @description One `google.rpc.ErrorInfo`. */
            details: {
                /** @enum {string} */
                "@type": "type.googleapis.com/google.rpc.ErrorInfo";
                /**
                 * @description Tribunal's stable error code (the `error.code` of other routes).
                 * @enum {string}
                 */
                reason: "invalid_json" | "unsupported_media_type" | "invalid_request" | "invalid_config" | "unknown_preset" | "unknown_method" | "task_kind_unsupported" | "byok_disabled" | "byok_not_supported" | "payload_too_large" | "unauthorized" | "not_found" | "method_not_allowed" | "idempotency_conflict" | "already_ended" | "unavailable" | "llm_not_configured" | "internal" | "forbidden" | "rate_limited" | "quota_exceeded" | "conflict" | "url_not_allowed" | "signing_secret_missing" | "limit_exceeded" | "endpoint_disabled" | "invalid_signature" | "mapping_failed" | "config_invalid" | "tier_unsupported" | "invalid_rubric" | "rubric_task_mismatch" | "rubric_unsupported" | "invalid_task" | "rubric_archived" | "agreement_below_minimum" | "rubric_steps_failed" | "rubric_steps_pending" | "auth_not_configured" | "unsupported_grader" | "labels_needed" | "calibration_pending";
                /** @enum {string} */
                domain: "tribunal";
                metadata: {
                    /** @description The first failing field or query parameter. */
                    field?: string;
                    /** @description On `internal`: quote it. */
                    requestId?: string;
                };
            }[];
        };
        Trace: {
            traceId: string;
            /** @description The span without a parent, once it arrived. */
            rootSpanId: string | null;
            spanCount: number;
            /** @description Depth first from each root, siblings by start time. */
            spans: components["schemas"]["TraceTreeSpan"][];
            /** @description Evaluations made of the trace without naming a span (by hand), oldest first. */
            evaluations: components["schemas"]["TraceEvaluation"][];
        };
        TraceTreeSpan: {
            traceId: string;
            spanId: string;
            parentSpanId: string | null;
            name: string;
            /** @enum {string} */
            kind: "unspecified" | "internal" | "server" | "client" | "producer" | "consumer";
            /** @description The resource's `service.name`. */
            service: string | null;
            /** @description The instrumentation scope name. */
            scope: string | null;
            startTimeUnixNano: string;
            /** @description Null when the span reports no end (0). */
            endTimeUnixNano: string | null;
            status: {
                /** @enum {string} */
                code: "unset" | "ok" | "error";
                message: string | null;
            };
            attributes: {
                [key: string]: unknown;
            };
            resource: {
                [key: string]: unknown;
            };
            events: {
                name: string;
                timeUnixNano: string;
                attributes: {
                    [key: string]: unknown;
                };
            }[];
            genAi: {
                /**
                 * @description From `gen_ai.operation.name` (chat, text_completion, generate_content: llm; execute_tool: tool; invoke_agent, create_agent: agent; embeddings) or OpenInference's `openinference.span.kind`; `other` for anything else.
                 * @enum {string}
                 */
                type: "llm" | "tool" | "agent" | "chain" | "retriever" | "embedding" | "other";
                /** @description `gen_ai.operation.name` as sent. */
                operation: string | null;
                /** @description `gen_ai.provider.name`, `gen_ai.system`, `llm.provider` or `llm.system`. */
                provider: string | null;
                /** @description `gen_ai.request.model` or `llm.model_name`. */
                requestModel: string | null;
                /** @description `gen_ai.response.model`. */
                responseModel: string | null;
                /** @description `input.value`, else the last user message's text. */
                input: string | null;
                /** @description `output.value`, else the last output message's text. */
                output: string | null;
                inputMessages: {
                    role: string;
                    content: string;
                    toolCalls?: {
                        id: string | null;
                        name: string;
                        /** @description The arguments as the producer sent them (usually JSON text). */
                        arguments: string | null;
                    }[];
                    /** @description The tool call this message answers (role `tool`). */
                    toolCallId?: string;
                }[] | null;
                outputMessages: {
                    role: string;
                    content: string;
                    toolCalls?: {
                        id: string | null;
                        name: string;
                        /** @description The arguments as the producer sent them (usually JSON text). */
                        arguments: string | null;
                    }[];
                    /** @description The tool call this message answers (role `tool`). */
                    toolCallId?: string;
                }[] | null;
                /** @description `gen_ai.tool.*` (name, call id, arguments, result) or OpenInference `tool.name` with `input.value` / `output.value`. */
                tool: {
                    name: string;
                    callId: string | null;
                    arguments: string | null;
                    result: string | null;
                } | null;
                /** @description `gen_ai.agent.name` / `gen_ai.agent.id` (OpenInference: `agent.name`). */
                agent: {
                    name: string | null;
                    id: string | null;
                } | null;
                /** @description `gen_ai.usage.input_tokens` / `output_tokens` or `llm.token_count.prompt` / `completion`. */
                usage: {
                    inputTokens: number | null;
                    outputTokens: number | null;
                } | null;
            };
            /** @description Depth in the span tree: 0 for a root. */
            depth: number;
            /** @description Evaluations made of this span, oldest first: by hand (`source.spanId`) or by a monitor (a trace-scope monitor's judgments are listed on the trace's root span). */
            evaluations: components["schemas"]["TraceEvaluation"][];
        };
        TraceEvaluation: {
            id: string;
            /**
             * @description `queued` → `running` → `succeeded` | `failed` | `cancelled` (terminal: nothing changes after).
             * @enum {string}
             */
            status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
            /** @description The span judged; null when the whole trace was. */
            spanId: string | null;
            /** @description The monitor that made it; null when made by hand. */
            monitorId: string | null;
            /** @description Once succeeded. */
            verdict: {
                /** @enum {string|null} */
                winner: "A" | "B" | "tie" | null;
                score: number | null;
                confidence: number;
                /** @description A trajectory's first failing step and its span; null otherwise. */
                firstFailingStep: {
                    step: number;
                    spanId: string | null;
                } | null;
            } | null;
        };
        Monitor: {
            id: string;
            name: string;
            filter: components["schemas"]["MonitorFilter"];
            scope: components["schemas"]["MonitorScope"];
            sampleRate: number;
            judge: components["schemas"]["MonitorJudge"];
            tier: components["schemas"]["Tier"] | null;
            dailyBudgetUsd: number | null;
            webhook: components["schemas"]["OneOffWebhook"] | null;
            paused: boolean;
            counts: components["schemas"]["MonitorCounts"];
            createdAt: string;
            updatedAt: string;
        };
        /** @description Which spans match (every given field must hold; `{}` matches all). Scope `trace`: a trace matches when any of its spans does. */
        MonitorFilter: {
            /** @description Span attributes that must equal these values (the span's own, then its resource's). */
            attributes?: {
                [key: string]: string | number | boolean;
            };
            /** @description The span's name, exactly. */
            spanName?: string;
            /** @description The resource's `service.name`, exactly. */
            service?: string;
            /** @description The model called (`gen_ai.request.model`, else `gen_ai.response.model`, or `llm.model_name`). */
            model?: string;
        };
        /**
         * @description `span`: each matching model-call span with GenAI input and output, once it ended, judged as a pointwise task (its input → its output). `trace`: each matching trace once complete (its root span ended, then `TRACE_QUIET_MS` without a new span), built into a `trajectory` task (the user's request, model and tool calls with their span ids, errors, the final answer).
         * @enum {string}
         */
        MonitorScope: "span" | "trace";
        /** @description The judge, as on `POST /v1/evaluations`: a preset, a config (a jury, a cascade, …) and a rubric. It must take the task the scope builds (pointwise for `span`, trajectory for `trace`): a pairwise preset is a 400 naming `judge.preset` (`judge.config.method` for a full config sent without a preset). */
        MonitorJudge: {
            /** @description Preset id from GET /v1/methods. Its config is the base the `config` overrides merge into. */
            preset?: string;
            /** @description Overrides deep-merged over the preset's config (objects merge, arrays and scalars replace), or a full config with `method` when no preset is given. The result must satisfy MethodConfig. */
            config?: components["schemas"]["MethodConfigOverrides"];
            rubric?: components["schemas"]["RubricRef"];
            /** @description Scope `span`: the aspect each span is scored on, for a judge that needs one (a pointwise task without a rubric). */
            aspect?: {
                name: string;
                description?: string;
                scale: {
                    min: number;
                    max: number;
                };
            };
        };
        MonitorCounts: {
            /** @description Spans (scope `span`) or traces (scope `trace`) that matched. */
            matched: number;
            /** @description Matches the sample kept: an evaluation was made, or the budget skipped it. */
            sampled: number;
            /** @description Its evaluations that succeeded. */
            succeeded: number;
            /** @description Its evaluations that failed or were cancelled. */
            failed: number;
            /** @description Sampled matches not judged: the daily budget was spent. */
            skippedBudget: number;
            /** @description Sampled traces (scope `trace`) not judged because no trajectory can be built from them: no step (no model call, tool call or failed span beside the root) or no request (no input on the root nor a user message in the first model call), or their texts were already erased (a tenant that stores no content, the root span arriving after the quiet period). Each is logged at info (`monitors.trace_unjudgeable`, with its reason). */
            skippedUnjudgeable: number;
        };
        CreateMonitorRequest: {
            name: string;
            filter: components["schemas"]["MonitorFilter"];
            scope: components["schemas"]["MonitorScope"];
            /** @description Fraction of matches judged, 0-1, decided by a hash of the trace id (and span id) and the monitor id: a re-export samples the same. */
            sampleRate: number;
            judge: components["schemas"]["MonitorJudge"];
            /**
             * @description The service tier. Absent: the tenant's default, else the providers' default, else `standard`. A tier a provider of the judge does not offer is a 400 `tier_unsupported` naming the provider.
             * @enum {string}
             */
            tier?: "standard" | "flex" | "batch";
            /** @description USD the monitor's evaluations may spend per UTC day. Each evaluation is granted what is left (its `budget.maxCostUsd`); when nothing is left, a match is counted `skippedBudget` instead of judged. */
            dailyBudgetUsd?: number;
            webhook?: components["schemas"]["OneOffWebhook"];
            /** @description Created paused (default false): nothing is matched until resumed. */
            paused?: boolean;
        };
        MonitorList: {
            data: components["schemas"]["Monitor"][];
            /** @description Pass as `cursor` for the next page; null on the last. */
            nextCursor: string | null;
        };
        UpdateMonitorRequest: {
            name?: string;
            filter?: components["schemas"]["MonitorFilter"];
            scope?: components["schemas"]["MonitorScope"];
            /** @description Fraction of matches judged, 0-1, decided by a hash of the trace id (and span id) and the monitor id: a re-export samples the same. */
            sampleRate?: number;
            judge?: components["schemas"]["MonitorJudge"];
            tier?: components["schemas"]["Tier"] | null;
            /** @description USD the monitor's evaluations may spend per UTC day. Each evaluation is granted what is left (its `budget.maxCostUsd`); when nothing is left, a match is counted `skippedBudget` instead of judged. */
            dailyBudgetUsd?: number | null;
            webhook?: components["schemas"]["OneOffWebhook"] | null;
            /** @description true pauses the monitor (spans arriving meanwhile are not matched); false resumes it. */
            paused?: boolean;
        };
        Exports: {
            /** @description The OTLP export, or null when none is set. */
            otlp: components["schemas"]["OtlpExport"] | null;
        };
        OtlpExport: {
            /** @description The base URL as stored. */
            endpoint: string;
            /** @description Where records are POSTed: `<endpoint>/v1/logs`. */
            logsUrl: string;
            protocol: components["schemas"]["OtlpProtocol"];
            /** @description The names of the headers sent; their values are never shown. */
            headers: string[];
            /** @description What the export's delivery attempts came to (each attempt writes it). */
            delivery: {
                lastAttemptAt: string | null;
                lastSuccessAt: string | null;
                /** @description The last attempt's answer; null: none came. */
                lastStatusCode: number | null;
                /** @description The last failed attempt (its HTTP status, a timeout or a network error), or null. */
                lastError: {
                    at: string;
                    message: string;
                } | null;
            };
            createdAt: string;
            updatedAt: string;
        };
        /**
         * @description `http/protobuf` (the default, `application/x-protobuf`) or `http/json` (`application/json`, OTLP/JSON).
         * @enum {string}
         */
        OtlpProtocol: "http/protobuf" | "http/json";
        ExportsRequest: {
            /** @description The OTLP export, replacing the one set before (send the headers again); null removes it. */
            otlp: components["schemas"]["OtlpExportRequest"] | null;
        };
        OtlpExportRequest: {
            /**
             * @description The collector's base URL, as `OTEL_EXPORTER_OTLP_ENDPOINT`: records go to `<endpoint>/v1/logs` (a URL already ending in `/v1/logs` is used as it is). Checked by the webhooks' URL guard: `https` to a public host (plain `http` to loopback only where the deployment sets `WEBHOOK_ALLOW_LOOPBACK=true`).
             * @example https://hooks.example.com/tribunal
             */
            endpoint: string;
            /** @description Headers sent with every request (at most 16), e.g. the collector's API key: secrets, stored and never shown back (reads list the names). */
            headers?: {
                [key: string]: string;
            };
            protocol?: components["schemas"]["OtlpProtocol"];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Healthy. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description D1 unreachable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
    getApiReference: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description HTML page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiReferenceAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Script name. */
                file: "scalar.js" | "init.js";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JavaScript. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/javascript": string;
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: the bundle is missing from this deployment's static assets. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEvaluations: {
        parameters: {
            query?: {
                /** @description Only evaluations in this status. */
                status?: "queued" | "running" | "succeeded" | "failed" | "cancelled";
                /** @description Only evaluations of this preset (one of `GET /v1/methods`; another is a 400). */
                preset?: string;
                /** @description Only the items of this batch (`ba_…`), meta-evaluation (`me_…`) or comparison (`cp_…`). */
                batch?: string;
                /** @description Only evaluations whose metadata has this entry, as `key:value` (split at the first `:`). Compared as text: a string value as it is, a number in JSON form (`n:3`, `score:0.5`), a boolean as `true` / `false`. */
                metadata?: string;
                /** @description Only evaluations judged by this stored rubric (`rb_…`: any version), or by one version of it (`rb_…@3`), as their `rubric` records it. A version's auto-CoT steps evaluation (method `rubric-steps`) is listed with it. */
                rubric?: string;
                /** @description Only evaluations made of this trace (their `source.traceId`), by hand or by a monitor. */
                traceId?: string;
                /** @description Only evaluations made by this monitor (`mon_…`, their `source.monitorId`). */
                monitor?: string;
                /** @description Only evaluations created at or after this time (ISO 8601). */
                createdAfter?: string;
                /** @description Only evaluations created before this time (ISO 8601). */
                createdBefore?: string;
                /** @description Evaluations per page, 1-100 (default 20). */
                limit?: number;
                /** @description The `nextCursor` of the previous page (opaque; pass the same filters). Absent: the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of evaluations. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvaluationList"];
                };
            };
            /** @description `invalid_request`: a query parameter fails its schema (unknown, malformed, out of range), or the cursor is not one this API returned. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createEvaluation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same body returns the first answer instead of creating a second evaluation. Send one whenever a request may be retried (a retry after a connection reset without it creates a duplicate). */
                "Idempotency-Key"?: string;
                /** @description `wait=<seconds>` (RFC 7240): answer 200 with the ended evaluation, verdict included when it ends within that time, instead of 202 at once; a longer wait than 60 s is applied as 60 (the 200's `Preference-Applied` says `wait=60`). Without an end in time the answer is the usual 202, with `Preference-Applied` naming the wait it waited out. */
                Prefer?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateEvaluationRequest"];
            };
        };
        responses: {
            /** @description Ended within the `Prefer: wait` time: the evaluation with its verdict (or its error). */
            200: {
                headers: {
                    /** @description The evaluation's URL (relative). */
                    Location: string;
                    /** @description The `wait` preference honoured, e.g. `wait=30`. */
                    "Preference-Applied": string;
                    /** @description Present when this answers a retry with the same `Idempotency-Key`. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Evaluation"];
                };
            };
            /** @description Accepted: queued (also the answer to an idempotent replay). */
            202: {
                headers: {
                    /** @description The evaluation's URL (relative). */
                    Location: string;
                    /** @description Present when this answers a retry with the same `Idempotency-Key`. */
                    "Idempotent-Replayed"?: "true";
                    /** @description Present when `Prefer: wait` ran its whole time without an end: the wait honoured, e.g. `wait=60` for a longer one asked. */
                    "Preference-Applied"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvaluationAccepted"];
                };
            };
            /** @description `invalid_json`, `invalid_request`, `invalid_config`, `unknown_preset`, `unknown_method`, `task_kind_unsupported`, `byok_disabled`, `url_not_allowed`, `signing_secret_missing`: the body, a header or the query fails its schema (see `issues`), the judge config is invalid for the task, or a `webhook.url` is refused by the URL guard or cannot be signed yet. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: the `rubric` reference names no rubric, version or tag of the tenant (the message names the field). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `idempotency_conflict`, `labels_needed`: the `Idempotency-Key` was used with a different body, or (`certify`) the rubric version has too few labelled items to calibrate on: `error.labelsNeeded` says how many more. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: Content-Type is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`, `quota_exceeded`: this key's request rate is used up (`Retry-After`), or the tenant's monthly evaluation or spend cap is reached (`error.resetAt`, `Retry-After`: the first day of next month, UTC). Evaluations already accepted run to their end. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `byok_not_supported`: X-LLM-Api-Key sent while ALLOW_BYOK is true (not supported yet). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rubric_steps_failed`: writing the rubric version's evaluation steps (G-Eval's auto-CoT, one `rubric-steps` evaluation) failed; the message has its error, and the next request tries again. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `calibration_pending`, `rubric_steps_pending`, `llm_not_configured`, `config_invalid`, `auth_not_configured`: (`certify`) the judge is still judging the rubric version's labelled items (`Retry-After`; nothing was created, so retry with the same `Idempotency-Key`), the rubric version's evaluation steps are still being written, the deployment has no usable LLM settings, or its configuration is invalid. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEvaluation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Evaluation id (`ev_…`), as returned by `POST /v1/evaluations`. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The evaluation. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Evaluation"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no evaluation with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteEvaluation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Evaluation id (`ev_…`), as returned by `POST /v1/evaluations`. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted (also when it was deleted before). */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no evaluation with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEvaluationTranscript: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Evaluation id (`ev_…`), as returned by `POST /v1/evaluations`. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The transcript. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Transcript"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no evaluation with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEvaluationTask: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Evaluation id (`ev_…`), as returned by `POST /v1/evaluations`. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The task. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvaluationTask"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no evaluation with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelEvaluation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Evaluation id (`ev_…`), as returned by `POST /v1/evaluations`. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CancelRequest"];
            };
        };
        responses: {
            /** @description Cancelled. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CancelResponse"];
                };
            };
            /** @description `invalid_json`, `invalid_request`: the body or the query fails its schema (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no evaluation with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `already_ended`: the evaluation succeeded, failed or was cancelled before. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: a body was sent whose Content-Type is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    streamEvaluationEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Evaluation id (`ev_…`), as returned by `POST /v1/evaluations`. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching to a WebSocket (request sent with `Upgrade: websocket`). */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Event stream: `event: <type>` and `data: <JSON>` lines per event. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no evaluation with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listMethods: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Methods and presets. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodsResponse"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createMetaEvaluation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same body returns the first answer instead of creating a second evaluation. Send one whenever a request may be retried (a retry after a connection reset without it creates a duplicate). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateMetaEvaluationRequest"];
            };
        };
        responses: {
            /** @description Accepted: every item is queued (also the answer to an idempotent replay). */
            202: {
                headers: {
                    /** @description The meta-evaluation's URL (relative). */
                    Location: string;
                    /** @description Present when this answers a retry with the same `Idempotency-Key`. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MetaEvaluationAccepted"];
                };
            };
            /** @description `invalid_json`, `invalid_request`, `invalid_config`, `unknown_preset`, `unknown_method`, `task_kind_unsupported`, `byok_disabled`, `url_not_allowed`, `signing_secret_missing`: the body, a header or the query fails its schema (see `issues`), the judge config is invalid for the task, or a `webhook.url` is refused by the URL guard or cannot be signed yet. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: the `rubric` reference names no rubric, version or tag of the tenant (the message names the field). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `idempotency_conflict`: the `Idempotency-Key` was used with a different body. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: Content-Type is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`, `quota_exceeded`: this key's request rate is used up (`Retry-After`), or the tenant's monthly evaluation or spend cap is reached (`error.resetAt`, `Retry-After`: the first day of next month, UTC). Evaluations already accepted run to their end. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `byok_not_supported`: X-LLM-Api-Key sent while ALLOW_BYOK is true (not supported yet). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rubric_steps_failed`: writing the rubric version's evaluation steps (G-Eval's auto-CoT, one `rubric-steps` evaluation) failed; the message has its error, and the next request tries again. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rubric_steps_pending`, `llm_not_configured`, `config_invalid`, `auth_not_configured`: the rubric version's evaluation steps are still being written (`Retry-After`; nothing was created, so retry with the same `Idempotency-Key`), the deployment has no usable LLM settings, or its configuration is invalid. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMetaEvaluation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Meta-evaluation id (`me_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The meta-evaluation. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MetaEvaluation"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no meta-evaluation with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    calibrateMetaEvaluation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Meta-evaluation id (`me_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CalibrateRequest"];
            };
        };
        responses: {
            /** @description The calibration and the calibrated config. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CalibrateResult"];
                };
            };
            /** @description `invalid_request`, `invalid_json`: the body fails its schema, or the run is not a finished pairwise cascade run with labels (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no meta-evaluation with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: Content-Type is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAnnotationQueues: {
        parameters: {
            query?: {
                /** @description The `nextCursor` of the previous page (opaque). */
                cursor?: string;
                /** @description Per page, 1-100 (default 20). */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of queues. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnnotationQueueList"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createAnnotationQueue: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same body returns the first answer instead of creating a second evaluation. Send one whenever a request may be retried (a retry after a connection reset without it creates a duplicate). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateAnnotationQueueRequest"];
            };
        };
        responses: {
            /** @description Created (also the answer to an idempotent replay). */
            201: {
                headers: {
                    /** @description The queue's URL (relative). */
                    Location: string;
                    /** @description Present when this answers a retry with the same `Idempotency-Key`. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnnotationQueue"];
                };
            };
            /** @description `invalid_json`, `invalid_request`: the body fails its schema (see `issues`): neither or both of `items` and `fromEvaluations`, a duplicate item id, a task of the other kind or one the rubric cannot judge (`items.N.task`), a filter that finds nothing (`fromEvaluations.filter`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no rubric, version or tag with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `idempotency_conflict`, `rubric_archived`: the `Idempotency-Key` was used with a different body, or the rubric is archived and named without a version. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: Content-Type is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnnotationQueue: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Queue id (`aq_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The queue. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnnotationQueue"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no queue with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    nextAnnotationItem: {
        parameters: {
            query?: never;
            header?: {
                /** @description Who is labelling, when several people share one key. Default: the key id. */
                "x-annotator"?: string;
            };
            path: {
                /** @description Queue id (`aq_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The next item. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnnotationNextItem"];
                };
            };
            /** @description No item is left for this annotator. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no queue with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnnotationItem: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Queue id (`aq_…`). */
                id: string;
                /** @description The item's id in the queue. */
                itemId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The item. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnnotationItem"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no queue or item with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    labelAnnotationItem: {
        parameters: {
            query?: never;
            header?: {
                /** @description Who is labelling, when several people share one key. Default: the key id. */
                "x-annotator"?: string;
            };
            path: {
                /** @description Queue id (`aq_…`). */
                id: string;
                /** @description The item's id in the queue. */
                itemId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PostLabelRequest"];
            };
        };
        responses: {
            /** @description The item with its labels. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnnotationItem"];
                };
            };
            /** @description `invalid_json`, `invalid_request`: the label does not fit the rubric (`label.winner`, `label.score`, `label.aspects.<name>`: the kind, a score off the scale, an aspect it does not have), or `annotator` differs from `x-annotator`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no queue or item with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: Content-Type is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    exportAnnotationQueue: {
        parameters: {
            query?: {
                /** @description `jsonl` (default) or `csv`. */
                format?: "jsonl" | "csv";
            };
            header?: never;
            path: {
                /** @description Queue id (`aq_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The export. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": components["schemas"]["AnnotationExportLine"];
                    "text/csv": string;
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no queue with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    importAnnotationLabels: {
        parameters: {
            query?: never;
            header?: {
                /** @description Who is labelling, when several people share one key. Default: the key id. */
                "x-annotator"?: string;
            };
            path: {
                /** @description Queue id (`aq_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-ndjson": string;
                "text/csv": string;
            };
        };
        responses: {
            /** @description Imported. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnnotationImportResult"];
                };
            };
            /** @description `invalid_json`, `invalid_request`: a line that is not JSON, an unknown CSV column, an unknown item or a label that does not fit the rubric (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no queue with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: Content-Type is not application/x-ndjson or text/csv. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    checkRubricVersion: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same body returns the first answer instead of creating a second evaluation. Send one whenever a request may be retried (a retry after a connection reset without it creates a duplicate). */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Rubric id (`rb_…`), as returned by `POST /v1/rubrics`. */
                id: string;
                /** @description Version number, 1, 2, … */
                version: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RubricCheckRequest"];
            };
        };
        responses: {
            /** @description Accepted: every example is queued (also the answer to an idempotent replay). */
            202: {
                headers: {
                    /** @description The rubric check's URL (relative). */
                    Location: string;
                    /** @description Present when this answers a retry with the same `Idempotency-Key`. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RubricCheck"];
                };
            };
            /** @description `invalid_json`, `invalid_request`, `invalid_config`, `unknown_preset`, `unknown_method`, `task_kind_unsupported`, `byok_disabled`, `url_not_allowed`, `signing_secret_missing`: the body, a header or the query fails its schema (see `issues`), the judge config is invalid for the task, or a `webhook.url` is refused by the URL guard or cannot be signed yet. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: the `rubric` reference names no rubric, version or tag of the tenant (the message names the field). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `idempotency_conflict`: the `Idempotency-Key` was used with a different body. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: Content-Type is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`, `quota_exceeded`: this key's request rate is used up (`Retry-After`), or the tenant's monthly evaluation or spend cap is reached (`error.resetAt`, `Retry-After`: the first day of next month, UTC). Evaluations already accepted run to their end. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `byok_not_supported`: X-LLM-Api-Key sent while ALLOW_BYOK is true (not supported yet). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rubric_steps_failed`: writing the rubric version's evaluation steps (G-Eval's auto-CoT, one `rubric-steps` evaluation) failed; the message has its error, and the next request tries again. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rubric_steps_pending`, `llm_not_configured`, `config_invalid`, `auth_not_configured`: the rubric version's evaluation steps are still being written (`Retry-After`; nothing was created, so retry with the same `Idempotency-Key`), the deployment has no usable LLM settings, or its configuration is invalid. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRubricAgreement: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Rubric id (`rb_…`), as returned by `POST /v1/rubrics`. */
                id: string;
                /** @description Version number, 1, 2, … */
                version: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The agreement (`status: completed`). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RubricAgreement"];
                };
            };
            /** @description The judge is running (`status: running`): read `links.self` again. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RubricAgreement"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no rubric or version with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `conflict`: the version has no labelled item yet. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    alignRubric: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Rubric id (`rb_…`), as returned by `POST /v1/rubrics`. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AlignRequest"];
            };
        };
        responses: {
            /** @description The job started (`status: running`): read `links.self`. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Alignment"];
                };
            };
            /** @description `invalid_json`, `invalid_request`, `invalid_config`, `unknown_preset`, `unknown_method`, `byok_disabled`: the body fails its schema, names no queue of this rubric, a method that does not fit the rubric, or an invalid judge (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no rubric with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `conflict`, `rubric_archived`: the queue has too few labelled items (the message says how many more), or the rubric is archived. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: Content-Type is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `byok_not_supported`: X-LLM-Api-Key sent while ALLOW_BYOK is true (not supported yet). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAlignment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Rubric id (`rb_…`), as returned by `POST /v1/rubrics`. */
                id: string;
                /** @description The alignment id (`al_…`). */
                alignmentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Alignment"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no rubric or alignment with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listRubrics: {
        parameters: {
            query?: {
                /** @description The `nextCursor` of the previous page (opaque). Absent: the first page. */
                cursor?: string;
                /** @description Per page, 1-100 (default 20). */
                limit?: number;
                /** @description `true`: only archived rubrics; `false`: only the others. Absent: all. */
                archived?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of rubrics. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RubricList"];
                };
            };
            /** @description `invalid_request`: a query parameter fails its schema, or the cursor is not one this API returned. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createRubric: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same body returns the first answer instead of creating a second evaluation. Send one whenever a request may be retried (a retry after a connection reset without it creates a duplicate). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateRubricRequest"];
            };
        };
        responses: {
            /** @description Created (also the answer to an idempotent replay): the rubric with its new version. */
            201: {
                headers: {
                    /** @description The new version's URL (relative). */
                    Location: string;
                    /** @description Present when this answers a retry with the same `Idempotency-Key`. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RubricCreated"];
                };
            };
            /** @description `invalid_json`, `invalid_request`: the body fails its schema (see `issues`, each naming its field): empty or oversized criteria, a scale with max ≤ min, weights that are not positive, duplicate aspect names, more than 16 aspects, an example of the other kind or off the scale. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `idempotency_conflict`: the `Idempotency-Key` was used with a different body. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: Content-Type is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRubric: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Rubric id (`rb_…`), as returned by `POST /v1/rubrics`. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rubric. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rubric"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no rubric with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listRubricVersions: {
        parameters: {
            query?: {
                /** @description The `nextCursor` of the previous page (opaque). Absent: the first page. */
                cursor?: string;
                /** @description Per page, 1-100 (default 20). */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description Rubric id (`rb_…`), as returned by `POST /v1/rubrics`. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of versions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RubricVersionList"];
                };
            };
            /** @description `invalid_request`: a query parameter fails its schema, or the cursor is not one this API returned. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no rubric with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createRubricVersion: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same body returns the first answer instead of creating a second evaluation. Send one whenever a request may be retried (a retry after a connection reset without it creates a duplicate). */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Rubric id (`rb_…`), as returned by `POST /v1/rubrics`. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateRubricVersionRequest"];
            };
        };
        responses: {
            /** @description Created (also the answer to an idempotent replay): the rubric with its new version. */
            201: {
                headers: {
                    /** @description The new version's URL (relative). */
                    Location: string;
                    /** @description Present when this answers a retry with the same `Idempotency-Key`. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RubricCreated"];
                };
            };
            /** @description `invalid_json`, `invalid_request`: the body fails its schema (see `issues`), or its `kind` is not the rubric's. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no rubric with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `idempotency_conflict`, `rubric_archived`: the `Idempotency-Key` was used with a different body, or the rubric is archived. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: Content-Type is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRubricVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Rubric id (`rb_…`), as returned by `POST /v1/rubrics`. */
                id: string;
                /** @description Version number, 1, 2, … */
                version: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The version. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RubricVersion"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no rubric or version with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putRubricTag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Rubric id (`rb_…`), as returned by `POST /v1/rubrics`. */
                id: string;
                /** @description Tag name: `prod`, `staging`, any `[a-z0-9-]{1,32}`. */
                tag: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PutRubricTagRequest"];
            };
        };
        responses: {
            /** @description The tag as it is now. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RubricTag"];
                };
            };
            /** @description `invalid_json`, `invalid_request`: the body or the path fails its schema (see `issues`), or the metric is not one of this kind's check. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no rubric or version with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `agreement_below_minimum`, `rubric_archived`: the version's golden check is missing, running or below the tag's `minAgreement` (the message names the figure), or the rubric is archived. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: Content-Type is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteRubricTag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Rubric id (`rb_…`), as returned by `POST /v1/rubrics`. */
                id: string;
                /** @description Tag name: `prod`, `staging`, any `[a-z0-9-]{1,32}`. */
                tag: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed (also when there was no such tag). */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no rubric with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    archiveRubric: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Rubric id (`rb_…`), as returned by `POST /v1/rubrics`. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The archived rubric. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rubric"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no rubric with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUsage: {
        parameters: {
            query?: {
                /** @description Start, inclusive: a date (midnight UTC) or a date-time. Default: the first day of this month, UTC. */
                from?: string;
                /** @description End, exclusive. Default: now. */
                to?: string;
                /** @description Group calls by UTC day, model, preset or the key that created the evaluation. Default `day`. */
                groupBy?: "day" | "model" | "preset" | "key";
                /** @description Response format; default JSON, or CSV when the Accept header asks for text/csv. */
                format?: "json" | "csv";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report: JSON, or CSV (`format=csv` or `Accept: text/csv`) with a header row and one row per group. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UsageReport"];
                    "text/csv": string;
                };
            };
            /** @description `invalid_request`: an unknown or malformed query parameter, or `to` not after `from` (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminListTenants: {
        parameters: {
            query?: {
                /** @description Items per page, 1-500 (default 100). */
                limit?: number;
                /** @description The `next` of the previous page. */
                after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of tenants. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantList"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminCreateTenant: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTenantRequest"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Tenant"];
                };
            };
            /** @description `invalid_json`, `invalid_request`: the body, path or query fails its schema (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `conflict`: a tenant with the given `id` exists. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: Content-Type is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminGetTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Tenant id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tenant. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Tenant"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no tenant with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminUpdateTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Tenant id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateTenantRequest"];
            };
        };
        responses: {
            /** @description The tenant as changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Tenant"];
                };
            };
            /** @description `invalid_json`, `invalid_request`: the body, path or query fails its schema (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no tenant with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: Content-Type is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminGetTenantUsage: {
        parameters: {
            query?: {
                /** @description Start, inclusive: a date (midnight UTC) or a date-time. Default: the first day of this month, UTC. */
                from?: string;
                /** @description End, exclusive. Default: now. */
                to?: string;
                /** @description Group calls by UTC day, model, preset or the key that created the evaluation. Default `day`. */
                groupBy?: "day" | "model" | "preset" | "key";
                /** @description Response format; default JSON, or CSV when the Accept header asks for text/csv. */
                format?: "json" | "csv";
            };
            header?: never;
            path: {
                /** @description Tenant id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report: JSON, or CSV (`format=csv` or `Accept: text/csv`) with a header row and one row per group. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UsageReport"];
                    "text/csv": string;
                };
            };
            /** @description `invalid_request`: an unknown or malformed query parameter, or `to` not after `from` (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no tenant with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminListKeys: {
        parameters: {
            query?: {
                /** @description Items per page, 1-500 (default 100). */
                limit?: number;
                /** @description The `next` of the previous page. */
                after?: string;
                /** @description Only this tenant's keys. */
                tenantId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of keys. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KeyList"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminCreateKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateKeyRequest"];
            };
        };
        responses: {
            /** @description Created: the key and its record. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedKey"];
                };
            };
            /** @description `invalid_json`, `invalid_request`: the body, path or query fails its schema (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no tenant with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: Content-Type is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminGetKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Key id (not the key). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no key with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminCarryOverShards: {
        parameters: {
            query?: {
                /** @description Records moved by this call at most, 1-2000 (default 500). */
                maxRows?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What this call moved. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShardCarryOver"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminRevokeKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Key id (not the key). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key, revoked. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no key with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listBatches: {
        parameters: {
            query?: {
                /** @description The `nextCursor` of the previous page (opaque). Absent: the first page. */
                cursor?: string;
                /** @description Batches per page, newest first, 1-100 (default 20). */
                limit?: number;
                /** @description Only batches of this kind. */
                kind?: "batch" | "meta_evaluation" | "comparison";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of batches. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchList"];
                };
            };
            /** @description `invalid_request`: a query parameter fails its schema, or the cursor is not one this API returned. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createBatch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same body returns the first answer instead of creating a second evaluation. Send one whenever a request may be retried (a retry after a connection reset without it creates a duplicate). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateBatchRequest"];
                "application/x-ndjson": string;
            };
        };
        responses: {
            /** @description Accepted: every item is stored and queued (also the answer to an idempotent replay). */
            202: {
                headers: {
                    /** @description The batch's URL (relative). */
                    Location: string;
                    /** @description Present when this answers a retry with the same `Idempotency-Key`. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchAccepted"];
                };
            };
            /** @description `invalid_json`, `invalid_request`, `invalid_config`, `unknown_preset`, `unknown_method`, `task_kind_unsupported`, `byok_disabled`, `url_not_allowed`, `signing_secret_missing`: the body, a header or the query fails its schema (see `issues`), the judge config is invalid for the task, or a `webhook.url` is refused by the URL guard or cannot be signed yet. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: the `rubric` reference names no rubric, version or tag of the tenant (the message names the field). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `idempotency_conflict`, `labels_needed`: the `Idempotency-Key` was used with a different body, or (`certify`) the rubric version has too few labelled items to calibrate on: `error.labelsNeeded` says how many more. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: Content-Type is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`, `quota_exceeded`: this key's request rate is used up (`Retry-After`), or the tenant's monthly evaluation or spend cap is reached (`error.resetAt`, `Retry-After`: the first day of next month, UTC). Evaluations already accepted run to their end. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `byok_not_supported`: X-LLM-Api-Key sent while ALLOW_BYOK is true (not supported yet). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rubric_steps_failed`: writing the rubric version's evaluation steps (G-Eval's auto-CoT, one `rubric-steps` evaluation) failed; the message has its error, and the next request tries again. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `calibration_pending`, `rubric_steps_pending`, `llm_not_configured`, `config_invalid`, `auth_not_configured`: (`certify`) the judge is still judging the rubric version's labelled items (`Retry-After`; nothing was created, so retry with the same `Idempotency-Key`), the rubric version's evaluation steps are still being written, the deployment has no usable LLM settings, or its configuration is invalid. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getBatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Batch id (`ba_…`, a meta-evaluation's `me_…` or a comparison's `cp_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The batch. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Batch"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no batch with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getBatchResults: {
        parameters: {
            query?: {
                /** @description The `nextCursor` of the previous page (opaque). Absent: the first page. */
                cursor?: string;
                /** @description Lines per page, 1-1000 (default 100). */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description Batch id (`ba_…`, a meta-evaluation's `me_…` or a comparison's `cp_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description NDJSON: one `BatchResultLine` per line. */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    /** @description RFC 8288 link to the next page (`rel="next"`); absent on the last page. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": components["schemas"]["BatchResultLine"];
                };
            };
            /** @description `invalid_request`: a query parameter fails its schema, or the cursor is not one this API returned for this batch. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no batch with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelBatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Batch id (`ba_…`, a meta-evaluation's `me_…` or a comparison's `cp_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Cancelling: the batch as it is now. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Batch"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no batch with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `already_ended`: every item of the batch had ended before. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listComparisons: {
        parameters: {
            query?: {
                /** @description The `nextCursor` of the previous page (opaque). Absent: the first page. */
                cursor?: string;
                /** @description Comparisons per page, newest first, 1-100 (default 20). */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of comparisons. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ComparisonList"];
                };
            };
            /** @description `invalid_request`: a query parameter fails its schema, or the cursor is not one this API returned. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createComparison: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same body returns the first answer instead of creating a second evaluation. Send one whenever a request may be retried (a retry after a connection reset without it creates a duplicate). */
                "Idempotency-Key"?: string;
                /** @description `wait=<seconds>` (RFC 7240): answer 200 with the ended comparison, its statistics and gate included when it ends within that time, instead of 202 at once; a longer wait than 60 s is applied as 60 (the 200's `Preference-Applied` says `wait=60`). Without an end in time the answer is the usual 202, with `Preference-Applied` naming the wait it waited out. */
                Prefer?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateComparisonRequest"];
                "application/x-ndjson": string;
            };
        };
        responses: {
            /** @description Ended within the `Prefer: wait` time: the comparison with its final statistics and gate. */
            200: {
                headers: {
                    /** @description The comparison's URL (relative). */
                    Location: string;
                    /** @description The `wait` preference honoured, e.g. `wait=30`. */
                    "Preference-Applied": string;
                    /** @description Present when this answers a retry with the same `Idempotency-Key`. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Comparison"];
                };
            };
            /** @description Accepted: every pair evaluation is stored and queued (also the answer to an idempotent replay). */
            202: {
                headers: {
                    /** @description The comparison's URL (relative). */
                    Location: string;
                    /** @description Present when this answers a retry with the same `Idempotency-Key`. */
                    "Idempotent-Replayed"?: "true";
                    /** @description Present when `Prefer: wait` ran its whole time without an end: the wait honoured, e.g. `wait=60` for a longer one asked. */
                    "Preference-Applied"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ComparisonAccepted"];
                };
            };
            /** @description `invalid_json`, `invalid_request`, `invalid_config`, `unknown_preset`, `unknown_method`, `task_kind_unsupported`, `byok_disabled`, `url_not_allowed`, `signing_secret_missing`: the body, a header or the query fails its schema (see `issues`), the judge config is invalid for the task, or a `webhook.url` is refused by the URL guard or cannot be signed yet. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: the `rubric` reference names no rubric, version or tag of the tenant (the message names the field). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `idempotency_conflict`, `labels_needed`: the `Idempotency-Key` was used with a different body, or (`certify`) the rubric version has too few labelled items to calibrate on: `error.labelsNeeded` says how many more. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: Content-Type is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`, `quota_exceeded`: this key's request rate is used up (`Retry-After`), or the tenant's monthly evaluation or spend cap is reached (`error.resetAt`, `Retry-After`: the first day of next month, UTC). Evaluations already accepted run to their end. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `byok_not_supported`: X-LLM-Api-Key sent while ALLOW_BYOK is true (not supported yet). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rubric_steps_failed`: writing the rubric version's evaluation steps (G-Eval's auto-CoT, one `rubric-steps` evaluation) failed; the message has its error, and the next request tries again. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `calibration_pending`, `rubric_steps_pending`, `llm_not_configured`, `config_invalid`, `auth_not_configured`: (`certify`) the judge is still judging the rubric version's labelled items (`Retry-After`; nothing was created, so retry with the same `Idempotency-Key`), the rubric version's evaluation steps are still being written, the deployment has no usable LLM settings, or its configuration is invalid. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getComparison: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Comparison id (`cp_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The comparison. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Comparison"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no comparison with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getComparisonResults: {
        parameters: {
            query?: {
                /** @description The `nextCursor` of the previous page (opaque). Absent: the first page. */
                cursor?: string;
                /** @description Items per page, 1-200 (default 50). */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description Comparison id (`cp_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description NDJSON: one `ComparisonResultLine` per line. */
            200: {
                headers: {
                    /** @description Cursor of the next page; absent on the last page. */
                    "X-Next-Cursor"?: string;
                    /** @description RFC 8288 link to the next page (`rel="next"`); absent on the last page. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": components["schemas"]["ComparisonResultLine"];
                };
            };
            /** @description `invalid_request`: a query parameter fails its schema, or the cursor is not one of this comparison. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no comparison with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelComparison: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Comparison id (`cp_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Cancelling: the comparison as it is now. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Comparison"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no comparison with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `already_ended`: every evaluation of the comparison had ended before. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createEstimate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EstimateRequest"] | components["schemas"]["CreateComparisonRequest"];
            };
        };
        responses: {
            /** @description The estimate. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Estimate"];
                };
            };
            /** @description `invalid_json`, `invalid_request`, `invalid_config`, `unknown_preset`, `unknown_method`, `task_kind_unsupported`: the body or the query fails its schema (see `issues`), or the judge config is invalid for a task, as on POST /v1/evaluations. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: the `rubric` reference names no rubric, version or tag of the tenant (the message names the field). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: Content-Type is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `llm_not_configured`, `config_invalid`, `auth_not_configured`: the deployment has no usable LLM settings (an operator must fix them). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createChatCompletion: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same body returns the first answer instead of creating a second evaluation. Send one whenever a request may be retried (a retry after a connection reset without it creates a duplicate). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChatCompletionRequest"];
            };
        };
        responses: {
            /** @description The verdict (`stream` false), or the debate as server-sent events (`stream` true): each `data:` line a ChatCompletionChunk, then `data: [DONE]`; a stream that ends without a verdict ends with an OpenAIError `data:` line instead (ChatCompletionStreamEvent). */
            200: {
                headers: {
                    /** @description The evaluation this request created or found again (`GET /v1/evaluations/{id}`). */
                    "Tribunal-Evaluation-Id": string;
                    /** @description No-effect parameters the request set, comma-separated. */
                    "Tribunal-Unused-Parameters"?: string;
                    /** @description Present when this answers a retry with the same `Idempotency-Key`. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatCompletion"];
                    "text/event-stream": components["schemas"]["ChatCompletionStreamEvent"];
                };
            };
            /** @description `invalid_json`, `invalid_request`, `invalid_config`, `unknown_preset`, `task_kind_unsupported`, `byok_disabled`, `rubric_task_mismatch`: the body, a header or the query fails its schema, a refused parameter, no task in the message (see `issues`), an unknown judge, a task the preset does not take, or (`rubric_task_mismatch`, `param` `rubric`) the message's rubric is of the other kind than its task or contradicts its scale. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `unauthorized`: missing or unknown bearer token (only when the deployment sets ADMIN_TOKEN or API_KEYS). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `not_found`: the message's `rubric` names no rubric, version or tag of the tenant (`param` `rubric`; the message names which). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `idempotency_conflict`, `evaluation_cancelled`, `rubric_archived`: the `Idempotency-Key` was used with a different judge or task, the evaluation was cancelled, or the message's `rubric` names an archived rubric without its version (`param` `rubric`; the message names the version to use). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `unsupported_media_type`: Content-Type is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `rate_limited`, `quota_exceeded`: this key's request rate is used up (`Retry-After`), or the tenant's monthly evaluation or spend cap is reached (`error.resetAt`; `Retry-After`: the first day of next month, UTC). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `byok_not_supported`: X-LLM-Api-Key sent while ALLOW_BYOK is true (not supported yet). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `evaluation_failed`, `rubric_steps_failed`: the evaluation failed (its own error in `evaluationError`, e.g. an LLM failure after retries), or writing the rubric version's evaluation steps (G-Eval's auto-CoT) failed. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `llm_not_configured`, `config_invalid`, `rubric_steps_pending`: the deployment has no usable LLM settings, or its configuration is invalid (an operator must fix them), or the rubric version's evaluation steps are still being written (`Retry-After`). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `verdict_timeout`: no verdict within OPENAI_WAIT_SECONDS; the evaluation continues: poll `links.self`. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
        };
    };
    listModels: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The judges. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModelList"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `unauthorized`: missing or unknown bearer token (only when the deployment sets ADMIN_TOKEN or API_KEYS). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds (`RateLimit-Policy` / `RateLimit` on every answer). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
        };
    };
    retrieveModel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Model name, URL-encoded. */
                model: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The judge. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Model"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `unauthorized`: missing or unknown bearer token (only when the deployment sets ADMIN_TOKEN or API_KEYS). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `not_found`: no judge by this name. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds (`RateLimit-Policy` / `RateLimit` on every answer). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
        };
    };
    listEvals: {
        parameters: {
            query?: {
                /** @description The last id of the previous page. */
                after?: string;
                limit?: number;
                /** @description By creation time; default `asc`. */
                order?: "asc" | "desc";
                order_by?: "created_at" | "updated_at";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of evals. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvalList"];
                };
            };
            /** @description `invalid_request`: a query parameter fails its schema. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
        };
    };
    createEval: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same body returns the first answer instead of creating a second evaluation. Send one whenever a request may be retried (a retry after a connection reset without it creates a duplicate). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateEvalRequest"];
            };
        };
        responses: {
            /** @description The eval (also the answer to an idempotent replay). */
            200: {
                headers: {
                    /** @description Present when this answers a retry with the same `Idempotency-Key`. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Eval"];
                };
            };
            /** @description `invalid_json`, `invalid_request`, `unsupported_grader`: the body fails its schema, a grader names a field the item schema lacks or a threshold outside its range (see `issues`), or a `python` grader (the message names the alternatives). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `not_found`: the eval this `Idempotency-Key` made was deleted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `idempotency_conflict`: the `Idempotency-Key` was used with a different body. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `unsupported_media_type`: Content-Type is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
        };
    };
    getEval: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                eval_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The eval. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Eval"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `not_found`: no eval with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
        };
    };
    updateEval: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                eval_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateEvalRequest"];
            };
        };
        responses: {
            /** @description The eval as it is now. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Eval"];
                };
            };
            /** @description `invalid_json`, `invalid_request`: the body fails its schema (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `not_found`: no eval with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `unsupported_media_type`: Content-Type is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
        };
    };
    deleteEval: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                eval_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvalDeleted"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `not_found`: no eval with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
        };
    };
    listEvalRuns: {
        parameters: {
            query?: {
                /** @description The last id of the previous page. */
                after?: string;
                limit?: number;
                /** @description By creation time; default `asc`. */
                order?: "asc" | "desc";
                status?: "queued" | "in_progress" | "completed" | "canceled" | "failed";
            };
            header?: never;
            path: {
                eval_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of runs. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvalRunList"];
                };
            };
            /** @description `invalid_request`: a query parameter fails its schema. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `not_found`: no eval with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
        };
    };
    createEvalRun: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same body returns the first answer instead of creating a second evaluation. Send one whenever a request may be retried (a retry after a connection reset without it creates a duplicate). */
                "Idempotency-Key"?: string;
            };
            path: {
                eval_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateEvalRunRequest"];
            };
        };
        responses: {
            /** @description The run, queued (or, replaying an `Idempotency-Key`, as it is now). */
            200: {
                headers: {
                    /** @description Present when this answers a retry with the same `Idempotency-Key`. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvalRun"];
                };
            };
            /** @description `invalid_json`, `invalid_request`, `tier_unsupported`: the body fails its schema, a template names a field the item schema lacks, an item (inline or a line of the file) the eval's `item_schema` refuses (a wrong type, a required field missing; `issues` name its line and field, checked before any call), a data source Tribunal does not read (the message says what to send), or a `service_tier` the provider does not offer (`tier_unsupported`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `not_found`: no eval with this id for this tenant, or the run this `Idempotency-Key` made was deleted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `idempotency_conflict`, `labels_needed`: the `Idempotency-Key` was used with a different body or eval, or (`certify`) the rubric version of a judge grader has too few labelled items to calibrate on: `error.labelsNeeded` says how many more. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `unsupported_media_type`: Content-Type is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `rate_limited`, `quota_exceeded`: this key's request rate is used up (`Retry-After`), or the tenant's monthly evaluation or spend cap is reached (`error.resetAt`, `Retry-After`: the first day of next month, UTC). Evaluations already accepted run to their end. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `llm_not_configured`, `calibration_pending`: the run calls a model and the deployment's LLM settings are unusable, or (`certify`) a judge grader is still judging its rubric version's labelled items (`Retry-After`; nothing was created: send the request again). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
        };
    };
    getEvalRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                eval_id: string;
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvalRun"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `not_found`: no run with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
        };
    };
    cancelEvalRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                eval_id: string;
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run as it is now. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvalRun"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `not_found`: no run with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
        };
    };
    deleteEvalRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                eval_id: string;
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvalRunDeleted"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `not_found`: no run with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
        };
    };
    listEvalRunOutputItems: {
        parameters: {
            query?: {
                /** @description The last id of the previous page. */
                after?: string;
                limit?: number;
                /** @description By creation time; default `asc`. */
                order?: "asc" | "desc";
                status?: "pass" | "fail";
            };
            header?: never;
            path: {
                eval_id: string;
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of output items. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvalRunOutputItemList"];
                };
            };
            /** @description `invalid_request`: a query parameter fails its schema, or `after` is not an item of this run. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `not_found`: no run with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
        };
    };
    getEvalRunOutputItem: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                eval_id: string;
                run_id: string;
                output_item_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The output item. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvalRunOutputItem"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `not_found`: no output item with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
        };
    };
    runGrader: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same body returns the first answer instead of creating a second evaluation. Send one whenever a request may be retried (a retry after a connection reset without it creates a duplicate). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GraderRunRequest"];
            };
        };
        responses: {
            /** @description The reward and what happened (also the answer to an idempotent replay). */
            200: {
                headers: {
                    /** @description Present when this answers a retry with the same `Idempotency-Key`. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GraderRunResponse"];
                };
            };
            /** @description `invalid_json`, `invalid_request`, `unsupported_grader`: the body fails its schema, a grader names a field the item schema lacks or a threshold outside its range (see `issues`), or a `python` grader (the message names the alternatives). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `idempotency_conflict`: the `Idempotency-Key` was used with a different body, or its first request is still running. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `unsupported_media_type`: Content-Type is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `llm_not_configured`, `config_invalid`, `auth_not_configured`: a model grader needs LLM settings, and the deployment has no usable ones. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
        };
    };
    validateGrader: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GraderValidateRequest"];
            };
        };
        responses: {
            /** @description The grader. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GraderValidateResponse"];
                };
            };
            /** @description `invalid_json`, `invalid_request`, `unsupported_grader`: the body fails its schema, a grader names a field the item schema lacks or a threshold outside its range (see `issues`), or a `python` grader (the message names the alternatives). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `unsupported_media_type`: Content-Type is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
        };
    };
    listFiles: {
        parameters: {
            query?: {
                /** @description The last id of the previous page. */
                after?: string;
                limit?: number;
                /** @description By creation time; default `desc`. */
                order?: "asc" | "desc";
                /** @description Only files with this purpose. */
                purpose?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of files. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileList"];
                };
            };
            /** @description `invalid_request`: a query parameter fails its schema. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
        };
    };
    createFile: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same body returns the first answer instead of creating a second evaluation. Send one whenever a request may be retried (a retry after a connection reset without it creates a duplicate). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": components["schemas"]["FileUpload"];
            };
        };
        responses: {
            /** @description The stored file (also the answer to an idempotent replay). */
            200: {
                headers: {
                    /** @description Present when this answers a retry with the same `Idempotency-Key`. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileObject"];
                };
            };
            /** @description `invalid_request`: a form field fails its schema, a purpose other than `evals`, a line that is not a JSON object, or too many lines (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `not_found`: the file this `Idempotency-Key` made was deleted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `idempotency_conflict`: the `Idempotency-Key` was used with a different upload. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `payload_too_large`: the file is over 20 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `unsupported_media_type`: the body is not multipart/form-data. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
        };
    };
    getFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                file_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileObject"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `not_found`: no file with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
        };
    };
    deleteFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                file_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileDeleted"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `not_found`: no file with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
        };
    };
    getFileContent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                file_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The content. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `not_found`: no file with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoints. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointList"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the same key with the same body returns the first answer instead of creating a second evaluation. Send one whenever a request may be retried (a retry after a connection reset without it creates a duplicate). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhookEndpointRequest"];
            };
        };
        responses: {
            /** @description Registered (also the answer to an idempotent replay, with the same secret); store `secret` now. */
            201: {
                headers: {
                    /** @description The endpoint's URL (relative). */
                    Location: string;
                    /** @description Present when this answers a retry with the same `Idempotency-Key`. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedWebhookEndpoint"];
                };
            };
            /** @description `invalid_json`, `invalid_request`, `url_not_allowed`: the body or the query fails its schema (see `issues`), or the URL guard refuses the URL (the message names the rule). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `limit_exceeded`, `idempotency_conflict`: the tenant already has 20 endpoints, or the `Idempotency-Key` was used with a different body. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: Content-Type is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Endpoint id (`we_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no webhook endpoint with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Endpoint id (`we_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no webhook endpoint with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Endpoint id (`we_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWebhookEndpointRequest"];
            };
        };
        responses: {
            /** @description The updated endpoint. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description `invalid_json`, `invalid_request`, `url_not_allowed`: the body or the query fails its schema (see `issues`), or the URL guard refuses the URL (the message names the rule). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no webhook endpoint with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: Content-Type is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateWebhookEndpointSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Endpoint id (`we_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RotatedSecret"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no webhook endpoint with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookEndpointDeliveries: {
        parameters: {
            query?: {
                /** @description Only deliveries in this status. */
                status?: "pending" | "delivered" | "failed";
                /** @description Page size, 1-100 (default 20). */
                limit?: number;
                /** @description The previous page's `nextCursor`. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Endpoint id (`we_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            /** @description `invalid_request`: an unknown or invalid query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no webhook endpoint with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retryWebhookEndpointDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Endpoint id (`we_…`). */
                id: string;
                /** @description Delivery id (`dlv_…`). */
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued again. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no webhook endpoint or delivery with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `endpoint_disabled`: the endpoint is disabled: re-enable it first. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Only deliveries in this status. */
                status?: "pending" | "delivered" | "failed";
                /** @description Only deliveries of events about this evaluation, batch or meta-evaluation id. */
                subject?: string;
                /** @description Only deliveries to this endpoint (`one-off` for one-off URLs). */
                endpoint?: string;
                /** @description Page size, 1-100 (default 20). */
                limit?: number;
                /** @description The previous page's `nextCursor`. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            /** @description `invalid_request`: an unknown or invalid query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retryWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Delivery id (`dlv_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued again. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no webhook delivery with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `endpoint_disabled`: its endpoint is disabled: re-enable it first. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhookSigningSecret: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Status. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSigningSecretStatus"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createWebhookSigningSecret: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new secret. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSigningSecret"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `conflict`: the tenant already has a signing secret: rotate it instead. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateWebhookSigningSecret: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSigningSecret"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: the tenant has no signing secret yet: create it first. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listTriggers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The triggers. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TriggerList"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createTrigger: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTriggerRequest"];
            };
        };
        responses: {
            /** @description Created; give `secret` to the sender now. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedTrigger"];
                };
            };
            /** @description `invalid_json`, `invalid_request`, `invalid_config`, `unknown_preset`, `unknown_method`, `task_kind_unsupported`, `url_not_allowed`, `signing_secret_missing`: the body fails its schema (see `issues`), the judge does not resolve or does not take the mapping's task kind, or the callback URL is refused or cannot be signed yet. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: the `rubric` reference names no rubric, version or tag of the tenant (the message names the field). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `limit_exceeded`: the tenant already has 100 triggers. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: Content-Type is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `llm_not_configured`, `config_invalid`, `auth_not_configured`: the deployment has no usable LLM settings. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTrigger: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Trigger id (`trg_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The trigger. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Trigger"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no trigger with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteTrigger: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Trigger id (`trg_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no trigger with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateTriggerSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Trigger id (`trg_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RotatedSecret"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no trigger with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    receiveHook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Trigger id (`trg_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Valid, but the filter (or a GitHub `ping`) skips it: nothing created. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HookIgnored"];
                };
            };
            /** @description Accepted: the evaluation, or the comparison of a `comparison` trigger (also for a replayed delivery id). */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HookAccepted"] | components["schemas"]["HookComparisonAccepted"];
                };
            };
            /** @description `invalid_json`, `invalid_request`, `invalid_config`, `task_kind_unsupported`: the body is not JSON, `X-GitHub-Delivery` is missing, or the mapped task does not suit the judge. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `invalid_signature`: missing, wrong or stale signature (timestamp more than 5 minutes away): nothing created. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no trigger with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `idempotency_conflict`: this delivery id was used before with a different body. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `mapping_failed`: the mapping cannot fill a task field from this body (the message names it): nothing created. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `quota_exceeded`: the trigger's tenant reached its monthly evaluation or spend cap (`error.resetAt`; `Retry-After`: the first day of next month, UTC): nothing created; the sender may retry the delivery later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rubric_steps_failed`: writing the rubric version's evaluation steps (G-Eval's auto-CoT, one `rubric-steps` evaluation) failed; the message has its error, and the next request tries again. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rubric_steps_pending`, `llm_not_configured`, `config_invalid`, `auth_not_configured`: the rubric version's evaluation steps are still being written (`Retry-After`; nothing was created, so retry with the same `Idempotency-Key`), the deployment has no usable LLM settings, or its configuration is invalid. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    exportTraces: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-protobuf": string;
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Accepted; `partialSuccess` counts the spans rejected and says why. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OtlpExportTraceServiceResponse"];
                    "application/x-protobuf": string;
                };
            };
            /** @description `invalid_request`, `invalid_json`: the body does not decode (bad protobuf, JSON or gzip), or an unknown query parameter. Not retryable. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OtlpStatus"];
                    "application/x-protobuf": string;
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OtlpStatus"];
                    "application/x-protobuf": string;
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OtlpStatus"];
                    "application/x-protobuf": string;
                };
            };
            /** @description `payload_too_large`: the body is over OTLP_MAX_BODY_BYTES (before or after gzip), or carries more than OTLP_MAX_SPANS spans. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OtlpStatus"];
                    "application/x-protobuf": string;
                };
            };
            /** @description `unsupported_media_type`: Content-Type is neither application/x-protobuf nor application/json, or Content-Encoding is not gzip. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OtlpStatus"];
                    "application/x-protobuf": string;
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OtlpStatus"];
                    "application/x-protobuf": string;
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OtlpStatus"];
                    "application/x-protobuf": string;
                };
            };
            /** @description `unavailable`, `config_invalid`, `auth_not_configured`: the span queue is unavailable (retryable, `Retry-After`; a repeat stores each span once), or the deployment's configuration is invalid. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OtlpStatus"];
                    "application/x-protobuf": string;
                };
            };
        };
    };
    getTrace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The trace id: 32 lowercase hex characters, as OTLP/JSON writes it. */
                traceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The trace. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Trace"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no trace with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteTrace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The trace id: 32 lowercase hex characters, as OTLP/JSON writes it. */
                traceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted (also when it was deleted before). */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no trace with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listMonitors: {
        parameters: {
            query?: {
                /** @description Page size, 1-100 (default 100: every monitor). */
                limit?: number;
                /** @description The previous page's `nextCursor`. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The monitors. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorList"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createMonitor: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateMonitorRequest"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Monitor"];
                };
            };
            /** @description `invalid_json`, `invalid_request`, `invalid_config`, `unknown_preset`, `unknown_method`, `task_kind_unsupported`, `invalid_rubric`, `rubric_task_mismatch`, `rubric_unsupported`, `url_not_allowed`, `signing_secret_missing`: the body fails its schema (see `issues`), or the judge does not resolve or does not take the task the scope builds (named under `judge.`), or the webhook URL is refused or cannot be signed yet. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: the `rubric` reference names no rubric, version or tag of the tenant (the message names the field). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `limit_exceeded`: the tenant already has 100 monitors. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: Content-Type is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `llm_not_configured`, `config_invalid`, `auth_not_configured`: the deployment has no usable LLM settings. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMonitor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The monitor id (`mon_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The monitor. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Monitor"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no monitor with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteMonitor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The monitor id (`mon_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no monitor with this id for this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateMonitor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The monitor id (`mon_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateMonitorRequest"];
            };
        };
        responses: {
            /** @description The monitor as changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Monitor"];
                };
            };
            /** @description `invalid_json`, `invalid_request`, `invalid_config`, `unknown_preset`, `unknown_method`, `task_kind_unsupported`, `invalid_rubric`, `rubric_task_mismatch`, `rubric_unsupported`, `url_not_allowed`, `signing_secret_missing`: the body fails its schema (see `issues`), or the judge does not resolve or does not take the task the scope builds (named under `judge.`), or the webhook URL is refused or cannot be signed yet. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no monitor with this id for this tenant, or the `judge.rubric` names none. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: Content-Type is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `llm_not_configured`, `config_invalid`, `auth_not_configured`: the deployment has no usable LLM settings. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getExports: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The export settings. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Exports"];
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putExports: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ExportsRequest"];
            };
        };
        responses: {
            /** @description The export settings now. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Exports"];
                };
            };
            /** @description `invalid_json`, `invalid_request`, `url_not_allowed`: the body fails its schema (see `issues`: a header name, a value, a reserved header), or the URL guard refuses `otlp.endpoint` (the message names the rule). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: missing, unknown, revoked or expired bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `forbidden`: the key lacks the scope this route needs (see the route's security). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: body over MAX_BODY_BYTES. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: Content-Type is not application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `internal`: a bug; quote `requestId`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `config_invalid`, `auth_not_configured`: the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OpenAPI 3.1 document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        openapi: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description `invalid_request`: an unknown query parameter (see `issues`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    evaluationSucceededEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so receivers deduplicate. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse values far from now (e.g. 5 minutes) to stop replays. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the `whsec_` secret; two space-separated signatures during a secret rotation. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    type: "evaluation.succeeded";
                    /** @description When the event happened (ISO 8601). */
                    timestamp: string;
                    data: components["schemas"]["EvaluationEventData"];
                };
            };
        };
        responses: {
            /** @description Received (any 2xx). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: Tribunal disables the endpoint and stops sending to it. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other answer: the delivery is retried with backoff. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    evaluationFailedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so receivers deduplicate. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse values far from now (e.g. 5 minutes) to stop replays. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the `whsec_` secret; two space-separated signatures during a secret rotation. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    type: "evaluation.failed";
                    /** @description When the event happened (ISO 8601). */
                    timestamp: string;
                    data: components["schemas"]["EvaluationEventData"];
                };
            };
        };
        responses: {
            /** @description Received (any 2xx). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: Tribunal disables the endpoint and stops sending to it. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other answer: the delivery is retried with backoff. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    evaluationCancelledEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so receivers deduplicate. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse values far from now (e.g. 5 minutes) to stop replays. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the `whsec_` secret; two space-separated signatures during a secret rotation. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    type: "evaluation.cancelled";
                    /** @description When the event happened (ISO 8601). */
                    timestamp: string;
                    data: components["schemas"]["EvaluationEventData"];
                };
            };
        };
        responses: {
            /** @description Received (any 2xx). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: Tribunal disables the endpoint and stops sending to it. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other answer: the delivery is retried with backoff. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    batchCompletedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so receivers deduplicate. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse values far from now (e.g. 5 minutes) to stop replays. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the `whsec_` secret; two space-separated signatures during a secret rotation. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    type: "batch.completed";
                    /** @description When the event happened (ISO 8601). */
                    timestamp: string;
                    data: components["schemas"]["BatchEventData"];
                };
            };
        };
        responses: {
            /** @description Received (any 2xx). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: Tribunal disables the endpoint and stops sending to it. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other answer: the delivery is retried with backoff. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    metaEvaluationCompletedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so receivers deduplicate. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse values far from now (e.g. 5 minutes) to stop replays. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the `whsec_` secret; two space-separated signatures during a secret rotation. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    type: "meta_evaluation.completed";
                    /** @description When the event happened (ISO 8601). */
                    timestamp: string;
                    data: components["schemas"]["BatchEventData"];
                };
            };
        };
        responses: {
            /** @description Received (any 2xx). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: Tribunal disables the endpoint and stops sending to it. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other answer: the delivery is retried with backoff. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    comparisonCompletedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so receivers deduplicate. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse values far from now (e.g. 5 minutes) to stop replays. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the `whsec_` secret; two space-separated signatures during a secret rotation. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    type: "comparison.completed";
                    /** @description When the event happened (ISO 8601). */
                    timestamp: string;
                    data: components["schemas"]["ComparisonEventData"];
                };
            };
        };
        responses: {
            /** @description Received (any 2xx). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: Tribunal disables the endpoint and stops sending to it. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other answer: the delivery is retried with backoff. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    evalRunSucceededEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so receivers deduplicate. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse values far from now (e.g. 5 minutes) to stop replays. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the `whsec_` secret; two space-separated signatures during a secret rotation. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    type: "eval.run.succeeded";
                    /** @description When the event happened (ISO 8601). */
                    timestamp: string;
                    data: components["schemas"]["EvalRunEventData"];
                };
            };
        };
        responses: {
            /** @description Received (any 2xx). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: Tribunal disables the endpoint and stops sending to it. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other answer: the delivery is retried with backoff. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    evalRunFailedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so receivers deduplicate. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse values far from now (e.g. 5 minutes) to stop replays. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the `whsec_` secret; two space-separated signatures during a secret rotation. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    type: "eval.run.failed";
                    /** @description When the event happened (ISO 8601). */
                    timestamp: string;
                    data: components["schemas"]["EvalRunEventData"];
                };
            };
        };
        responses: {
            /** @description Received (any 2xx). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: Tribunal disables the endpoint and stops sending to it. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other answer: the delivery is retried with backoff. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    evalRunCanceledEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id: the same on every attempt, so receivers deduplicate. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse values far from now (e.g. 5 minutes) to stop replays. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the `whsec_` secret; two space-separated signatures during a secret rotation. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    type: "eval.run.canceled";
                    /** @description When the event happened (ISO 8601). */
                    timestamp: string;
                    data: components["schemas"]["EvalRunEventData"];
                };
            };
        };
        responses: {
            /** @description Received (any 2xx). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: Tribunal disables the endpoint and stops sending to it. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other answer: the delivery is retried with backoff. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
