import type {
  MemberPreset,
  MemberType,
  PermissionCatalogueEntry,
  PermissionLevel,
} from '@herald/shared/member-presets';
import { http } from '../infra/http/http-client.ts';

/** Teammates (console-spec §7 "Members") and the invitee's accept screen. */
interface DataBody<T> {
  data: T;
}

export interface Member {
  userId: number;
  name: string | null;
  userName: string | null;
  email: string;
  type: MemberType;
  roles: MemberPreset[];
  levels: Partial<Record<number, PermissionLevel>>;
  state: 'toActivate' | 'joined';
  createdAt: number;
  lastLoginAt: number | null;
}

export interface MemberInput {
  email?: string;
  name?: string;
  type: MemberType;
  levels?: Record<string, PermissionLevel | 'none'>;
}

export interface Invitation {
  accountName: string;
  inviterName: string;
  email: string;
  name: string | null;
}

const json = { format: 'json' } as const;

export const fetchMembers = async () => (await http.get<DataBody<Member[]>>('/user/member')).data;

export const fetchMember = async (id: number) =>
  (await http.get<DataBody<Member>>(`/user/member/detail/${id}`)).data;

export const fetchPermissionCatalogue = async () =>
  (await http.get<DataBody<PermissionCatalogueEntry[]>>('/user/member/permissions/all')).data;

export const inviteMember = (input: MemberInput) =>
  http.post<DataBody<Member>>('/user/member', { ...input }, json);

export const updateMember = (userId: number, input: MemberInput) =>
  http.patch<DataBody<Member>>('/user/member', { userId, ...input }, json);

export const deleteMember = (userId: number) => http.delete(`/user/member/${userId}`);

export const resendInvite = (userId: number) => http.post(`/user/member/reSend/inviteUrl/${userId}`);

export const fetchInvitation = async (token: string) =>
  (await http.get<DataBody<Invitation>>('/access/member/invite', { token }, { toast: false })).data;

export const acceptInvitation = (values: {
  token: string;
  userName: string;
  password: string;
  confirmPassword: string;
}) => http.post<{ data?: { token?: string } }>('/access/member/invite', values, json);
