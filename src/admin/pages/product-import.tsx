import { importEnded, type ImportItem, type ImportSummary, type ImportView } from '../../modules/imports/schemas';
import { STORE_COLUMN_NAMES } from '../../modules/imports';
import { FormErrors, type FormState, PostForm } from '../components/form';
import { Badge, Table, when } from '../components/table';

const BASE = '/admin/products/import';

/** The upload form (check only, or import), what the last check found, and the latest imports. */
export function ImportPage(v: { csrf: string; form: FormState; maxBytes: number; summary: ImportSummary | null; recent: ImportItem[] }) {
  return (
    <>
      <div class="actions">
        <a href="/admin/products">← Products</a>
      </div>
      <section class="card" aria-labelledby="upload-h">
        <h2 id="upload-h">Upload a CSV file</h2>
        <p>
          The store's columns (<code>{STORE_COLUMN_NAMES.join(', ')}</code>) or a Shopify product export; rows with the same <code>handle</code> are one product and its variants. A
          product with the SKU or handle of an existing one updates it. At most {Math.round(v.maxBytes / 1024 / 1024)} MiB.
        </p>
        <PostForm action={BASE} csrf={v.csrf} enctype="multipart/form-data">
          <FormErrors form={v.form} fields={[]} />
          <label class="file-field">
            CSV file
            <input type="file" name="file" accept=".csv,text/csv" required />
          </label>
          <div class="actions">
            <button type="submit" name="step" value="check" class="secondary">
              Check only
            </button>
            <button type="submit" name="step" value="import">
              Import
            </button>
          </div>
        </PostForm>
      </section>
      {v.summary ? <CheckResult summary={v.summary} /> : null}
      <h2>Latest imports</h2>
      <Table caption="Latest imports" head={['Import', 'Started', 'Status', 'Rows', 'Created', 'Updated', 'Failed']} count={v.recent.length} empty="No imports yet.">
        {v.recent.map((i) => (
          <tr>
            <td>
              <a href={`${BASE}/${i.id}`}>{i.id}</a>
            </td>
            <td>{when(i.createdAt)}</td>
            <td>
              <Badge value={i.status} />
            </td>
            <td class="num">
              {i.rowsDone} / {i.rows}
            </td>
            <td class="num">{i.created}</td>
            <td class="num">{i.updated}</td>
            <td class="num">{i.failed}</td>
          </tr>
        ))}
      </Table>
    </>
  );
}

function CheckResult({ summary: s }: { summary: ImportSummary }) {
  return (
    <section class="card" aria-labelledby="check-h">
      <h2 id="check-h">Checked: nothing was written</h2>
      <p>
        {s.rows} rows in {s.format === 'shopify' ? "Shopify's" : "the store's"} format: {s.products} products, {s.create} to create, {s.update} to update, {s.failed} with failures
        ({s.failedRows} rows).
        {s.ignoredColumns.length ? ` Columns not used: ${s.ignoredColumns.join(', ')}.` : ''}
      </p>
      <Failures failures={s.failures} />
    </section>
  );
}

/** An import's progress, refreshed by the browser until it completes (or stops, saying why). */
export function ImportProgressPage({ job }: { job: ImportView }) {
  return (
    <>
      <div class="actions">
        <a href={BASE}>← Imports</a>
        <Badge value={job.status} />
      </div>
      <section class="card" aria-labelledby="progress-h">
        <h2 id="progress-h">Progress</h2>
        <label for="import-progress">
          {job.rowsDone} of {job.rows} rows processed
        </label>
        <progress id="import-progress" value={job.rowsDone} max={job.rows}>
          {job.rowsDone} of {job.rows}
        </progress>
        <dl class="facts">
          <dt>Format</dt>
          <dd>{job.format}</dd>
          <dt>Products</dt>
          <dd>{job.products}</dd>
          <dt>Created</dt>
          <dd>{job.created}</dd>
          <dt>Updated</dt>
          <dd>{job.updated}</dd>
          <dt>Unchanged</dt>
          <dd>{job.unchanged}</dd>
          <dt>Failed</dt>
          <dd>{job.failed}</dd>
          <dt>Started</dt>
          <dd>{when(job.createdAt)}</dd>
          <dt>Completed</dt>
          <dd>{when(job.completedAt)}</dd>
        </dl>
        {job.reason ? (
          <p class="flash error" role="alert">
            {job.reason}
          </p>
        ) : null}
        {importEnded(job.status) ? null : <p class="muted">This page refreshes every two seconds until the import completes.</p>}
      </section>
      <h2>Failures{job.failuresTotal > job.failures.length ? ` (first ${job.failures.length} of ${job.failuresTotal})` : ''}</h2>
      <Failures failures={job.failures} />
    </>
  );
}

function Failures({ failures }: { failures: { line: number; column: string; reason: string }[] }) {
  return (
    <Table caption="Failures" head={['Line', 'Column', 'Reason']} count={failures.length} empty="No failures.">
      {failures.map((f) => (
        <tr>
          <td class="num">{f.line}</td>
          <td>{f.column}</td>
          <td>{f.reason}</td>
        </tr>
      ))}
    </Table>
  );
}
