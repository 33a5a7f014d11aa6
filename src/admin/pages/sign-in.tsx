import { Document, type Flash, FlashMessage } from '../components/layout';
import { CsrfField, Field, FormErrors, type FormState } from '../components/form';

export function SignInPage(props: { form: FormState; csrf: string; next: string; flash: Flash | null; setup: boolean }) {
  return (
    <Document title="Sign in">
      <main id="main" class="sign-in">
        <h1>Store admin</h1>
        <p>Sign in with your admin or vendor account.</p>
        {props.flash ? <FlashMessage flash={props.flash} /> : null}
        <FormErrors form={props.form} fields={['email', 'password']} />
        <form method="post" action="/admin/sign-in" class="card">
          <CsrfField token={props.csrf} />
          <input type="hidden" name="next" value={props.next} />
          <Field form={props.form} name="email" label="Email" type="email" required autocomplete="username" />
          <Field form={props.form} name="password" label="Password" type="password" required autocomplete="current-password" />
          <button type="submit">Sign in</button>
        </form>
        {props.setup ? (
          <p>
            A new store without an admin yet? <a href="/admin/setup">Set up the first admin</a> with the bootstrap secret.
          </p>
        ) : null}
      </main>
    </Document>
  );
}
