import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';

/** Labels (product-spec §3 "Label: id, name"; §5 "Label name required"): unique per account. */
const rule = (key: ValidationKey) => ({ message: key });

export const LABEL_NAME_MAX = 255;

/** Email and SMS each have their own labels (SMS labels: issue 20); one table, one service. */
export const LABEL_CHANNELS = ['email', 'sms'] as const;
export type LabelChannel = (typeof LABEL_CHANNELS)[number];

export const labelNameSchema = z
  .string(rule('labelNameRequired'))
  .trim()
  .min(1, rule('labelNameRequired'))
  .max(LABEL_NAME_MAX, rule('labelNameLength'));

export const labelInputSchema = z.object({ name: labelNameSchema });
export type LabelInput = z.infer<typeof labelInputSchema>;

export const labelIdSchema = z.coerce.number(rule('invalid')).int(rule('invalid')).positive(rule('invalid'));

/** A label as the console and the SendCloud-compatible API show it. */
export interface LabelView {
  id: number;
  name: string;
  createdAt: number;
  updatedAt: number;
}

/** One entry of a label picker (`/combobox`). */
export interface LabelOption {
  value: number;
  label: string;
}
