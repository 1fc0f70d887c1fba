import { screen } from '@testing-library/react';
import type { fakeApi } from '../fake-api';
import type { fakeAccountApi } from './fake-account-api';

/** Finds an element by test id, waiting for the console to start and load. */
export const find = (id: string) => screen.findByTestId(id, undefined, { timeout: 3000 });

/** The account fake passed where renderApp expects the shell's fake. */
export const asApi = (api: ReturnType<typeof fakeAccountApi>) => api as unknown as ReturnType<typeof fakeApi>;

/** Texts of the visible alerts (notifications and form messages). */
export const alertTexts = () => screen.queryAllByRole('alert').map((el) => el.textContent ?? '');

/** The value of an input found by test id. */
export const valueOf = (id: string) => (screen.getByTestId(id) as HTMLInputElement).value;
