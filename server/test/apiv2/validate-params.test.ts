import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '@herald/shared';
import { z } from 'zod';
import { doc, params, t, text, validateParams, whole } from '../../src/http/apiv2/apiv2-docs.ts';

const schema = params({
  subject: text(t('主题', 'Subject')),
  labelId: whole(t('标签', 'Label')),
  to: doc(z.string(), t('收件人', 'Recipients'), { required: 'SEND_TO_REQUIRED' }),
  replyTo: text(t('回复', 'Reply to')),
});
const credentials = { apiUser: 'u', apiKey: 'k' };

function refusal(fields: Record<string, string>, against: typeof schema = schema): AppError {
  try {
    validateParams(against, fields);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  assert.fail('expected a refusal');
}

/** Calls that pass skip the free-text parameters; those that fail name the first failure in order. */
describe('validateParams', () => {
  it('passes any free text and checks the parameters with rules', () => {
    validateParams(schema, {
      ...credentials,
      to: 'a@b.c',
      subject: '任何 text %x%',
      replyTo: ' ',
      labelId: '12',
    });
    assert.equal(
      refusal({ ...credentials, to: 'a@b.c', subject: 's', labelId: 'x' }).code,
      'COMMON_VALIDATION_FAILED',
    );
  });

  it('answers the first missing parameter in the order of the schema', () => {
    assert.equal(refusal({ apiKey: 'k', labelId: 'x', subject: 's' }).code, 'API_AUTH_FAILED');
    assert.equal(refusal({ ...credentials, subject: 's' }).code, 'SEND_TO_REQUIRED');
    assert.equal(
      refusal({ ...credentials, to: ' ', subject: 's' }).code,
      'SEND_TO_REQUIRED',
      'blank is absent',
    );
  });

  it('names the parameter that broke its rule', () => {
    const error = refusal({ ...credentials, to: 'a@b.c', labelId: '1.5' });
    assert.deepEqual(error.fields, [{ field: 'labelId', message: 'invalid' }]);
  });

  it('checks every parameter when a rule spans several (a refinement on the whole call)', () => {
    const paired = params({ startDate: text(t('开始', 'Start')), endDate: text(t('结束', 'End')) }).refine(
      (p) => (p.startDate === undefined) === (p.endDate === undefined),
      { message: 'invalid', path: ['endDate'] },
    );
    validateParams(paired, { ...credentials, startDate: '2026-11-01', endDate: '2026-11-02' });
    assert.equal(
      refusal({ ...credentials, startDate: '2026-11-01' }, paired).code,
      'COMMON_VALIDATION_FAILED',
    );
  });
});
