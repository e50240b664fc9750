import {
  type TemplateEditor,
  type TemplateFormValues,
  templateInputSchema,
} from '@herald/shared/schemas/template.schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import {
  commitVerify,
  createTemplate,
  fetchTemplate,
  type TemplateBody,
  updateTemplate,
} from '../../api/templates.api.ts';
import { applyFieldErrors, checkWithSchema } from '../../components/form-rules.ts';
import { toastSuccess } from './template-toast.ts';

export const LIST_PATH = '/sendRelative/template';

export const EMPTY_TEMPLATE: TemplateFormValues = {
  name: '',
  invokeName: '',
  templateType: 'trigger',
  subject: '',
  summary: '',
  html: '',
};

/**
 * What both editors share: the `?id=` being edited (none for a new template), its load, and the
 * save: the whole form checked against the shared schema, then create or update, optionally
 * followed by commitVerify; the server's field errors land on their fields.
 */
export function useTemplateEditing(form: FormInstance, editor: TemplateEditor) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || null;
  const template = useQuery({
    queryKey: ['template', id],
    queryFn: () => fetchTemplate(id as number),
    enabled: id !== null,
  });

  const save = useMutation({
    mutationFn: async ({ values, submit }: { values: TemplateBody; submit: boolean }) => {
      const saved = id === null ? await createTemplate(values) : await updateTemplate(id, values);
      if (submit) await commitVerify(saved.id);
      return saved;
    },
    onSuccess: (_, { submit }) => {
      toastSuccess(t(submit ? 'templates.submitted' : 'templates.saved'));
      void queries.invalidateQueries({ queryKey: ['templates'] });
      void queries.invalidateQueries({ queryKey: ['template'] });
      void navigate(LIST_PATH);
    },
    onError: (error) => applyFieldErrors(form, error),
  });

  /** Checks and saves `extra` (content fields) with the form's values. */
  const submit = async (extra: Partial<TemplateBody>, andSubmit: boolean) => {
    const values = { ...(form.getFieldsValue(true) as TemplateFormValues), ...extra, editor };
    if (!checkWithSchema(form, templateInputSchema, values)) return;
    save.mutate({ values: values as TemplateBody, submit: andSubmit });
  };

  return { id, template, save, submit };
}
