import { labelNameSchema } from '@herald/shared';
import type { LabelView } from '../../core/labels/labels.service.ts';
import { paging } from '../apiv2/apiv2-data-range.ts';
import { sendCloudTime } from '../apiv2/domain.apiv2.ts';
import { ok } from '../apiv2/envelope.ts';
import {
  SMS_LABEL_DELETE,
  SMS_LABEL_GET,
  SMS_LABEL_LIST,
  SMS_LABEL_SAVE,
  SMS_LABEL_UPDATE,
} from './smsapi.params.ts';
import type { SmsapiActionEntry } from './smsapi.types.ts';

/**
 * SMS labels over the SMS API (`smsapi/label/*`, reference §11): the console's SMS label service
 * on the signing SMS_USER's account. The fields are those of SendCloud's SMS label page
 * (createTime, updateTime) and of its email labels (gmtCreated, gmtModified), the same values.
 */
function describe(label: LabelView) {
  const created = sendCloudTime(label.createdAt);
  const modified = sendCloudTime(label.updatedAt);
  return {
    labelId: label.id,
    labelName: label.name,
    createTime: created,
    updateTime: modified,
    gmtCreated: created,
    gmtModified: modified,
  };
}

/** The parameters are validated already: labelId is digits, labelName 1–255 characters. */
const idOf = (fields: Record<string, string>) => Number(fields.labelId);
const nameOf = (fields: Record<string, string>) => labelNameSchema.parse(fields.labelName);

export const SMS_LABEL_ACTIONS: readonly SmsapiActionEntry[] = [
  {
    path: 'label/list',
    docs: SMS_LABEL_LIST,
    action: async ({ smsUser, fields, request }, core) => {
      const { labels, total } = await core.smsLabels.list(
        { accountId: smsUser.accountId },
        { query: fields.labelName, ...paging(fields) },
      );
      return ok(request.lang, { total, count: labels.length, dataList: labels.map(describe) });
    },
  },
  {
    path: 'label/get',
    docs: SMS_LABEL_GET,
    action: async ({ smsUser, fields, request }, core) =>
      ok(request.lang, {
        data: describe(await core.smsLabels.get({ accountId: smsUser.accountId }, idOf(fields))),
      }),
  },
  {
    path: 'label/save',
    docs: SMS_LABEL_SAVE,
    action: async ({ smsUser, fields, request }, core) =>
      ok(request.lang, {
        data: describe(
          await core.smsLabels.create({ accountId: smsUser.accountId }, { name: nameOf(fields) }),
        ),
      }),
  },
  {
    path: 'label/update',
    docs: SMS_LABEL_UPDATE,
    action: async ({ smsUser, fields, request }, core) =>
      ok(request.lang, {
        data: describe(
          await core.smsLabels.rename({ accountId: smsUser.accountId }, idOf(fields), {
            name: nameOf(fields),
          }),
        ),
      }),
  },
  {
    path: 'label/delete',
    docs: SMS_LABEL_DELETE,
    action: async ({ smsUser, fields, request }, core) => {
      await core.smsLabels.remove({ accountId: smsUser.accountId }, idOf(fields));
      return ok(request.lang, { count: 1 });
    },
  },
];
