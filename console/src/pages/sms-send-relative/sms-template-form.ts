import { validationMessage } from '@herald/shared/validation';
import type { FormInstance } from 'antd';
import i18next from 'i18next';
import { fieldErrorsOf, showFormError } from '../../components/form-rules.ts';

/**
 * A failed template save: the server's field errors on their fields, nested ones included
 * (`variables.code`, `pages.1.image`), anything else as a toast.
 */
export function showTemplateError(form: FormInstance, error: unknown): void {
  const lang = i18next.language === 'en' ? 'en' : 'zh-cn';
  const fields = fieldErrorsOf(error);
  if (fields.length === 0) {
    showFormError(form, error);
    return;
  }
  form.setFields(
    fields.map((f) => ({
      name: f.field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
      errors: [validationMessage(f.message, lang)],
    })),
  );
}
