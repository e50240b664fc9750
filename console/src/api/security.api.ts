import type {
  GoogleQrCodeView,
  IpWhitelist,
  LoginLogView,
  LoginVerifyMode,
  SecuritySetting,
  VerifyWay,
  VerifyWaysView,
} from '@herald/shared/schemas/security-settings.schema';
import { http } from '../infra/http/http-client.ts';

export type { IpWhitelist, SecuritySetting };

/**
 * The security screen's calls (console-spec §7 "Security", Google authenticator). Changes go
 * without the client's toast: a 403 VERIFY_REQUIRED opens the verification dialog instead of an
 * error (see use-sensitive-action.tsx), which reports the other failures itself.
 */
interface DataBody<T> {
  data: T;
}

const quiet = { toast: false } as const;
const json = { format: 'json', toast: false } as const;

export const fetchSecuritySetting = async () =>
  (await http.get<DataBody<SecuritySetting>>('/user/config/securitySetting')).data;

export const saveLoginVerify = (mode: LoginVerifyMode, way?: VerifyWay) =>
  http.post('/user/config/verifyConfig/edited/login', { mode, way }, json);

export const saveDownloadVerify = (enabled: boolean) =>
  http.post('/user/config/verifyConfig/edited/download', { enabled }, json);

export const saveSensitiveVerify = (enabled: boolean) =>
  http.post('/user/config/verifyConfig/sensitive', { enabled }, json);

export const fetchVerifyWays = async () =>
  (await http.get<DataBody<VerifyWaysView>>('/verify/way/sys')).data.ways;

export const sendVerifyCode = (way: 'sms' | 'email') =>
  http.post(way === 'sms' ? '/verify/sendSmsCode' : '/verify/sendEmailCode', undefined, quiet);

export const checkVerifyCode = (way: VerifyWay, code: string) =>
  http.post('/verify/sys', { way, code }, json);

/** Marks this session verified for data downloads (console-spec §6), as /verify/sys does for changes. */
export const checkDownloadVerifyCode = (way: VerifyWay, code: string) =>
  http.post('/verify/download', { way, code }, json);

export const fetchGoogleQrCode = async () =>
  (await http.get<DataBody<GoogleQrCodeView>>('/user/config/googleAuth/qrCode')).data;

export const bindGoogleAuth = (code: string) => http.post('/user/config/googleAuth/binding', { code }, json);

export const unbindGoogleAuth = () => http.delete('/user/config/googleAuth/binding', undefined, quiet);

export const fetchIpWhitelist = async () => (await http.get<DataBody<IpWhitelist>>('/user/ipWhites')).data;

export const saveIpWhitelist = (ips: string) => http.post('/user/saveIPWhitelist', { ips }, json);

export const switchIpWhitelist = (enabled: boolean) =>
  http.post(enabled ? '/user/ipWhites/open' : '/user/ipWhites/close', undefined, quiet);

export const fetchLoginLogs = async () =>
  (await http.get<DataBody<LoginLogView[]>>('/user/config/loginLogs')).data;

export const changePassword = (values: {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}) => http.post('/access/password/change', values, { format: 'json' });

/** Until when this session counts as verified for sensitive changes; null when it does not. */
export const fetchSensitiveVerifiedUntil = async () =>
  (await http.get<DataBody<VerifyWaysView>>('/verify/way/sys')).data.sensitiveVerifiedUntil;
