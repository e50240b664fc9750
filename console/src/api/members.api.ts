import type { MemberType, PermissionCatalogueEntry, PermissionLevel } from '@herald/shared/member-presets';
import type { SessionToken } from '@herald/shared/schemas/account.schema';
import type { InvitationView, MemberView } from '@herald/shared/schemas/member.schema';
import { http } from '../infra/http/http-client.ts';

/** Teammates (console-spec §7 "Members") and the invitee's accept screen. */
interface DataBody<T> {
  data: T;
}

export interface MemberInput {
  email?: string;
  name?: string;
  type: MemberType;
  levels?: Record<string, PermissionLevel | 'none'>;
}

const json = { format: 'json' } as const;

export const fetchMembers = async () => (await http.get<DataBody<MemberView[]>>('/user/member')).data;

export const fetchMember = async (id: number) =>
  (await http.get<DataBody<MemberView>>(`/user/member/detail/${id}`)).data;

export const fetchPermissionCatalogue = async () =>
  (await http.get<DataBody<PermissionCatalogueEntry[]>>('/user/member/permissions/all')).data;

export const inviteMember = (input: MemberInput) =>
  http.post<DataBody<MemberView>>('/user/member', { ...input }, json);

export const updateMember = (userId: number, input: MemberInput) =>
  http.patch<DataBody<MemberView>>('/user/member', { userId, ...input }, json);

export const deleteMember = (userId: number) => http.delete(`/user/member/${userId}`);

export const resendInvite = (userId: number) => http.post(`/user/member/reSend/inviteUrl/${userId}`);

export const fetchInvitation = async (token: string) =>
  (await http.get<DataBody<InvitationView>>('/access/member/invite', { token }, { toast: false })).data;

export const acceptInvitation = (values: {
  token: string;
  userName: string;
  password: string;
  confirmPassword: string;
}) => http.post<DataBody<SessionToken>>('/access/member/invite', values, json);
