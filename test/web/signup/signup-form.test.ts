import { MESSAGES } from '@shared/messages';
import { describe, expect, it } from 'vitest';
import { EMPTY_SIGNUP, userStepProblems } from '../../../web/src/features/signup/signup-form';

describe('sign-up step 1 checks', () => {
  const filled = { ...EMPTY_SIGNUP, name: 'Ada', email: 'ada@example.test', password: 'Start-Pass-1!' };

  it('says the repeated password is required while it is empty, and that it does not match once typed', () => {
    expect(userStepProblems({ ...filled, repeat: '' }).repeat).toBe(MESSAGES.required);
    expect(userStepProblems({ ...filled, repeat: 'Start-Pass-2!' }).repeat).toBe(MESSAGES.passwordsMismatch);
    expect(userStepProblems({ ...filled, repeat: filled.password })).toEqual({});
  });
});
