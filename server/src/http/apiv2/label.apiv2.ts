import { AppError, labelNameSchema } from '@herald/shared';
import type { LabelView } from '../../core/labels/labels.service.ts';
import type { Apiv2Area } from './apiv2.plugin.ts';
import { sendCloudTime } from './apiv2-time.ts';
import { LABEL_ADD, LABEL_DELETE, LABEL_GET, LABEL_LIST, LABEL_UPDATE } from './label.params.ts';

const LIMIT_MAX = 100;

function describe(label: LabelView) {
  const created = sendCloudTime(label.createdAt);
  const modified = sendCloudTime(label.updatedAt);
  // SendCloud's field list says gmtModified, its samples gmtUpdated: both are given.
  return {
    labelId: label.id,
    labelName: label.name,
    gmtCreated: created,
    gmtModified: modified,
    gmtUpdated: modified,
  };
}

function labelIdOf(fields: Record<string, string>): number {
  const id = Number(fields.labelId);
  if (!Number.isSafeInteger(id) || id <= 0) throw new AppError('LABEL_NOT_FOUND');
  return id;
}

function whole(value: string | undefined, fallback: number, max: number): number {
  const n = Number(value);
  return value === undefined || value === '' || !Number.isInteger(n) || n < 0 ? fallback : Math.min(n, max);
}

/** `label/list|get|add|update|delete` (label_do.md), on the calling API_USER's account. */
export const labelApiv2: Apiv2Area = (action, core) => {
  action('label/list', LABEL_LIST, async ({ caller, params }) => {
    const f = params.fields;
    const { labels, total } = await core.labels.list(caller, {
      query: f.query,
      start: whole(f.start, 0, Number.MAX_SAFE_INTEGER),
      limit: whole(f.limit, LIMIT_MAX, LIMIT_MAX),
    });
    return { dataList: labels.map(describe), total, count: labels.length };
  });

  action('label/get', LABEL_GET, async ({ caller, params }) => ({
    data: describe(await core.labels.get(caller, labelIdOf(params.fields))),
  }));

  action('label/add', LABEL_ADD, async ({ caller, params }) => {
    const name = labelNameSchema.parse(params.fields.labelName ?? '');
    return { data: describe(await core.labels.create(caller, { name })) };
  });

  action('label/update', LABEL_UPDATE, async ({ caller, params }) => {
    const id = labelIdOf(params.fields);
    const name = labelNameSchema.parse(params.fields.labelName ?? '');
    await core.labels.rename(caller, id, { name });
    return { count: 1 };
  });

  action('label/delete', LABEL_DELETE, async ({ caller, params }) => {
    await core.labels.remove(caller, labelIdOf(params.fields));
    return { count: 1 };
  });
};
