import { Field, FormErrors, type FormState, PostForm } from '../components/form';
import type { AdminSession } from '../session';

/** The signed-in user's own account: who it is, and its password. */
export function AccountPage(v: { session: AdminSession; form: FormState }) {
  const user = v.session.user;
  return (
    <>
      <section class="card">
        <dl class="facts">
          <dt>Name</dt>
          <dd>{user.name ?? '—'}</dd>
          <dt>Email</dt>
          <dd>{user.email}</dd>
          <dt>Role</dt>
          <dd>{user.role}</dd>
        </dl>
      </section>
      <section class="card" aria-labelledby="password">
        <h2 id="password">Change your password</h2>
        <p class="muted">Every other session and token of yours stops working; this browser stays signed in.</p>
        <PostForm action="/admin/account/password" csrf={v.session.csrfToken}>
          <FormErrors form={v.form} fields={['currentPassword', 'newPassword']} />
          <Field form={v.form} name="currentPassword" label="Current password" type="password" required autocomplete="current-password" />
          <Field form={v.form} name="newPassword" label="New password" type="password" required autocomplete="new-password" hint="At least 8 characters." />
          <button type="submit">Change password</button>
        </PostForm>
      </section>
    </>
  );
}
