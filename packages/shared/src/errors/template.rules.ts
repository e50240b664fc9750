import type { RuleMessages } from './error-definition.ts';

/** Field-rule messages of the template area (product-spec §5), used by its shared schemas. */
export const TEMPLATE_RULES = {
  templateNameFormat: {
    'zh-cn': '模板名称最多64个字符，只能包含字母、数字和下划线',
    en: 'The template name is at most 64 letters, digits or underscores',
  },
  templateInvokeNameFormat: {
    'zh-cn': '调用名称最多128个字符，只能包含字母、数字和下划线',
    en: 'The invoke name is at most 128 letters, digits or underscores',
  },
  templateType: {
    'zh-cn': '模板类型只能是批量或触发',
    en: 'The template type must be batch or trigger',
  },
  templateEditor: {
    'zh-cn': '编辑器只能是富文本或拖拽',
    en: 'The editor must be rich text or drag-and-drop',
  },
  templateSummaryTooLong: {
    'zh-cn': '摘要最多200字节',
    en: 'The summary is at most 200 bytes',
  },
  templateDesign: {
    'zh-cn': '拖拽编辑器的设计数据无效',
    en: 'The drag-and-drop design is not valid',
  },
  templateRejectReason: {
    'zh-cn': '请填写驳回原因（最多500个字符）',
    en: 'Give a reason for the rejection (at most 500 characters)',
  },
} as const satisfies RuleMessages;
