import { addressError } from '@shared/address';
import { MESSAGES } from '@shared/messages';
import { orgDomainProblem } from '@shared/org-domain';
import { passwordProblems, type PasswordPolicy } from '@shared/password-policy';

/** What the sign-up wizard collects. */
export interface SignupValues {
  name: string;
  email: string;
  password: string;
  repeat: string;
  orgName: string;
  domain: string;
}

export const EMPTY_SIGNUP: SignupValues = { name: '', email: '', password: '', repeat: '', orgName: '', domain: '' };

/** Problems keyed by the server's field path (user.name, organization.domain ...); values are message texts. */
export type StepProblems = Record<string, string>;

/** Client checks of step 1 (user profile): the same messages the server would send. */
export function userStepProblems(values: SignupValues, policy?: PasswordPolicy): StepProblems {
  const problems: StepProblems = {};
  if (!values.name.trim()) problems['user.name'] = MESSAGES.required;
  const email = addressError('email', values.email);
  if (email) problems['user.email'] = email;
  const password = passwordProblems(values.password, policy);
  if (!values.password) problems['user.password'] = MESSAGES.required;
  else if (password.length) problems['user.password'] = password[0];
  if (!values.repeat && values.password) problems.repeat = MESSAGES.required;
  else if (values.repeat !== values.password) problems.repeat = MESSAGES.passwordsMismatch;
  return problems;
}

/** Client checks of step 2 (organisation profile). */
export function organizationStepProblems(values: SignupValues): StepProblems {
  const problems: StepProblems = {};
  if (!values.orgName.trim()) problems['organization.name'] = MESSAGES.required;
  const domain = orgDomainProblem(values.domain.trim().toLowerCase());
  if (domain) problems['organization.domain'] = domain;
  return problems;
}

/** The step that holds a server field path: user.* on step 0, organization.* on step 1, anything else null. */
export function stepOfField(path: string): number | null {
  if (path.startsWith('user.') || path === 'user') return 0;
  if (path.startsWith('organization.') || path === 'organization') return 1;
  return null;
}

/** The first step with a server field message, or null when none maps to a step. */
export function firstStepWithErrors(fields: Record<string, string[]>): number | null {
  const steps = Object.keys(fields)
    .filter((path) => fields[path]?.length)
    .map(stepOfField)
    .filter((step): step is number => step !== null);
  return steps.length ? Math.min(...steps) : null;
}

/** The POST /signup body. */
export function signupBody(values: SignupValues, invite: string | null) {
  return {
    user: { name: values.name.trim(), email: values.email.trim(), password: values.password },
    organization: { name: values.orgName.trim(), domain: values.domain.trim().toLowerCase() },
    ...(invite ? { invite } : {}),
  };
}
