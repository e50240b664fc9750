import type {
  LoginAnswer,
  LoginVerifyAnswer,
  RegisterVerificationWay,
} from '@herald/shared/schemas/account.schema';
import type { ChallengeAnswers, ImageCode, SliderChallenge } from '@herald/shared/schemas/security.schema';
import type { CodeSent, LoginVerifyInfo, VerifyWay } from '@herald/shared/schemas/security-settings.schema';
import type { WechatCheck, WechatStart } from '@herald/shared/schemas/wechat.schema';
import { http } from '../infra/http/http-client.ts';

export type { ChallengeAnswers, LoginAnswer, SliderChallenge, VerifyWay, WechatCheck };

/**
 * The public account calls (console-spec §7 "Auth and user"): login, the human checks, sign-up,
 * activation and the password flows. These screens show their errors next to the form, so every
 * call here asks the client for no toast; the client still navigates on 428 (→ /activate).
 */
interface DataBody<T> {
  data: T;
}

const inline = { toast: false } as const;

export async function fetchSlider(): Promise<SliderChallenge> {
  return (await http.get<DataBody<SliderChallenge>>('/oauth/slider', undefined, inline)).data;
}

export async function verifySlider(challengeId: string, x: number, durationMs: number): Promise<string> {
  const body = await http.post<DataBody<{ passToken: string }>>(
    '/oauth/slider/verify',
    { challengeId, x, durationMs },
    { ...inline, format: 'json' },
  );
  return body.data.passToken;
}

/** `url` is one of the image-code paths of §7, e.g. `/oauth/imageCode`. */
export async function fetchImageCode(url: string): Promise<ImageCode> {
  return (await http.get<DataBody<ImageCode>>(url, undefined, inline)).data;
}

export async function postLogin(
  input: { username: string; password: string } & ChallengeAnswers,
): Promise<LoginAnswer> {
  return (await http.post<DataBody<LoginAnswer>>('/oauth/token', { ...input }, inline)).data;
}

export type AvailabilityField = 'userName' | 'email' | 'phone';

const CHECK_PATHS: Record<AvailabilityField, string> = {
  userName: '/access/register/checkUserName',
  email: '/access/register/checkEmail',
  phone: '/access/register/checkPhone',
};

/** Resolves when the value is free; rejects with the server's 422 message when it is taken. */
export async function checkAvailable(field: AvailabilityField, value: string): Promise<void> {
  await http.get(CHECK_PATHS[field], { [field]: value }, inline);
}

export interface RegisterBody extends ChallengeAnswers {
  userName: string;
  password: string;
  confirmPassword: string;
  email: string;
  phone: string;
  agreement: boolean;
  /** The code texted to `phone`, when sign-up asks for one. */
  smsCode?: string | undefined;
}

export async function postRegister(input: RegisterBody): Promise<void> {
  await http.post('/access/register', { ...input, agreement: input.agreement ? 'true' : '' }, inline);
}

export async function postResendActivation(input: { userName: string } & ChallengeAnswers): Promise<void> {
  await http.post('/access/register/resendRegMail', { ...input }, inline);
}

export async function postForgotPassword(input: { email: string } & ChallengeAnswers): Promise<void> {
  await http.post('/access/password/forget', { ...input }, inline);
}

export async function postResetPassword(input: {
  token: string;
  password: string;
  confirmPassword: string;
}): Promise<void> {
  await http.post('/access/password/reset', { ...input }, inline);
}

/** The pending login rides on the HttpOnly cookie the password step set for this path. */
export async function fetchLoginVerifyInfo(): Promise<LoginVerifyInfo> {
  return (await http.get<DataBody<LoginVerifyInfo>>('/user/loginVerify', undefined, inline)).data;
}

/** `verifyToken` when the login step handed it over; else the HttpOnly cookie carries it. */
export async function sendLoginVerifyCode(
  verifyToken: string | undefined,
  way: 'sms' | 'email',
): Promise<void> {
  const path = way === 'sms' ? '/user/loginVerify/sendSmsCode' : '/user/loginVerify/sendEmailCode';
  await http.post(path, { verifyToken }, inline);
}

export async function postLoginVerify(input: {
  verifyToken?: string | undefined;
  way: VerifyWay;
  code: string;
}): Promise<LoginVerifyAnswer> {
  return (await http.post<DataBody<LoginVerifyAnswer>>('/user/loginVerify', { ...input }, inline)).data;
}

export async function ackFirstProtectedLogin(): Promise<void> {
  await http.post('/user/loginVerify/firstLoginSuccess', undefined, inline);
}

/** Whether sign-up proves the phone by an SMS code (a carrier is configured on the server). */
export async function fetchRegisterVerificationWay(): Promise<RegisterVerificationWay> {
  return (
    await http.get<DataBody<RegisterVerificationWay>>('/access/register/verification/way', undefined, inline)
  ).data;
}

export async function sendRegisterSmsCode(phone: string): Promise<CodeSent> {
  return (await http.post<DataBody<CodeSent>>('/access/register/sendSmsCode', { phone }, inline)).data;
}

/** Starts a WeChat quick login: the QR page to open; the server ties the state to this browser. */
export async function startWechatLogin(): Promise<WechatStart> {
  return (await http.get<DataBody<WechatStart>>('/access/wechat/quickLogin', undefined, inline)).data;
}

export async function checkWechatLogin(state: string): Promise<WechatCheck> {
  return (await http.get<DataBody<WechatCheck>>('/access/wechat/checkStat', { state }, inline)).data;
}

/** /wxbind: a password login that binds the scanned WeChat to the account. */
export async function postWechatBind(
  input: { state: string; username: string; password: string } & ChallengeAnswers,
): Promise<LoginAnswer> {
  return (await http.post<DataBody<LoginAnswer>>('/access/wechat/beforeLoginBind', { ...input }, inline))
    .data;
}
