import type { ErrorDefinition } from './error-definition.ts';

/** Importing a file into an SMS interception list or the keyword filter (all or nothing). */
export const SMS_IMPORT_ERRORS = {
  SMS_IMPORT_FORMAT: {
    status: 400,
    'zh-cn': '文件格式错误，请上传 txt 或 csv 文件',
    en: 'The file format is wrong: upload a txt or csv file',
  },
  SMS_IMPORT_TOO_LARGE: {
    status: 400,
    'zh-cn': '文件超出大小，最大 {max} MB',
    en: 'The file is too large: at most {max} MB',
  },
  SMS_IMPORT_TOO_MANY_LINES: {
    status: 400,
    'zh-cn': '文件有{lines}行，每个文件最多{max}行，请拆分后再导入；本次未导入任何内容',
    en: 'The file has {lines} lines; a file may have at most {max}. Split it and import again; nothing was imported',
  },
  SMS_IMPORT_EMPTY: {
    status: 400,
    'zh-cn': '文件中没有可导入的内容（无效{invalid}行）；本次未导入任何内容',
    en: 'Nothing in the file can be imported ({invalid} invalid lines); nothing was imported',
  },
} as const satisfies Record<string, ErrorDefinition>;
