/** A secret shown once, with a copy button (the button appears when the script runs). */
export function SecretOnce(props: { title: string; value: string; id: string; note: string }) {
  return (
    <section class="card" aria-labelledby={`${props.id}-title`}>
      <h2 id={`${props.id}-title`}>{props.title}</h2>
      <p>
        <strong>Copy it now: it is shown only once.</strong> {props.note}
      </p>
      <div class="secret">
        <code id={props.id}>{props.value}</code>
        <button type="button" class="secondary" data-copy={props.id} hidden>
          Copy
        </button>
      </div>
    </section>
  );
}
