import { Button, Form, Input, Space } from 'antd';
import type { ZodType } from 'zod';
import { zodRule } from '../form-rules.ts';

/**
 * A list member's variables as name/value pairs (`vars` of the form: `{ name, value }[]`), each
 * checked by the list's shared schema, at most `max`: the same field on a contact and an address.
 */
export function MemberVarsField({
  label,
  max,
  nameSchema,
  valueSchema,
  texts,
}: {
  label: string;
  max: number;
  nameSchema: ZodType;
  valueSchema: ZodType;
  texts: { varName: string; varValue: string; addVar: string; removeVar: string };
}) {
  return (
    <Form.List name="vars">
      {(fields, { add, remove }) => (
        <Form.Item label={label}>
          {fields.map((field) => (
            <Space key={field.key} align="start" className="contact-var-row member-var-row">
              <Form.Item name={[field.name, 'name']} rules={[zodRule(nameSchema)]}>
                <Input placeholder={texts.varName} className="contact-var-name member-var-name" />
              </Form.Item>
              <Form.Item name={[field.name, 'value']} rules={[zodRule(valueSchema)]}>
                <Input placeholder={texts.varValue} className="contact-var-value member-var-value" />
              </Form.Item>
              <Button type="link" danger onClick={() => remove(field.name)}>
                {texts.removeVar}
              </Button>
            </Space>
          ))}
          <Button
            type="dashed"
            className="contact-var-add member-var-add"
            disabled={fields.length >= max}
            onClick={() => add({ name: '', value: '' })}
          >
            {texts.addVar}
          </Button>
        </Form.Item>
      )}
    </Form.List>
  );
}
