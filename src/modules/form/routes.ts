import { eq } from 'drizzle-orm';
import { forms } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { formInputSchema, type FormInput } from '../../shared/contracts/form';
import { crudRoutes } from '../crud/crud-routes';
import { formValues, presentForms } from './store';
import { requireRoomForForm, validateForm } from './validate';

/** The activity log's name for forms (their API path). */
export const FORM_ENTITY = 'form';

/**
 * /form: the organisation's hosted sign-up forms (issue 39) on the shared entity contract. Every reference must be
 * the organisation's (src/modules/form/validate.ts); the public page at /f/<public_key> is src/modules/form/public.
 */
export const formRoutes = crudRoutes<typeof forms, FormInput, Awaited<ReturnType<typeof presentForms>>[number]>({
  table: forms,
  input: formInputSchema,
  sortable: { name: forms.name, created_at: forms.createdAt, updated_at: forms.updatedAt, id: forms.id },
  defaultSort: { key: 'name', order: 'asc' },
  search: [forms.name],
  only: ['list', 'read', 'create', 'update', 'delete', 'bulkDelete'],
  audit: FORM_ENTITY,
  validate: async (c, input, existing) => {
    if (!existing) await requireRoomForForm(c);
    await validateForm(c, input, existing);
  },
  write: {
    create: async (c, input) => {
      const [row] = await new TenantScope(c.var.db, forms, c.var.org.id).insert(formValues(input, true) as never);
      return row as typeof forms.$inferSelect;
    },
    update: async (c, existing, input) => {
      const [row] = await new TenantScope(c.var.db, forms, c.var.org.id).update(eq(forms.id, existing.id), {
        ...formValues(input, false),
        updatedAt: new Date().toISOString(),
      });
      return row as typeof forms.$inferSelect;
    },
  },
  present: presentForms,
});
