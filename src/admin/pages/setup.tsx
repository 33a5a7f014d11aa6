import { Document } from '../components/layout';
import { CsrfField, Field, FormErrors, type FormState } from '../components/form';

/** First run of a deployed store: the bootstrap secret creates the first admin, in the browser. */
export function SetupPage(props: { form: FormState; csrf: string }) {
  return (
    <Document title="Set up the store">
      <main id="main" class="sign-in">
        <h1>Set up the store</h1>
        <p>
          Create the first admin with the <code>BOOTSTRAP_SECRET</code> configured on this store (<code>wrangler secret put BOOTSTRAP_SECRET</code>). This works once: when an admin
          exists, sign in instead.
        </p>
        <FormErrors form={props.form} fields={['secret', 'name', 'email', 'password']} />
        <form method="post" action="/admin/setup" class="card">
          <CsrfField token={props.csrf} />
          <Field form={props.form} name="secret" label="Bootstrap secret" type="password" required autocomplete="off" />
          <Field form={props.form} name="name" label="Your name" autocomplete="name" />
          <Field form={props.form} name="email" label="Email" type="email" required autocomplete="username" />
          <Field form={props.form} name="password" label="Password" type="password" required autocomplete="new-password" hint="At least 8 characters." />
          <button type="submit">Create admin and sign in</button>
        </form>
        <p>
          <a href="/admin/sign-in">Back to sign-in</a>
        </p>
      </main>
    </Document>
  );
}
