import { api } from '../../api/client';

export interface SetupStatus {
  status: boolean;
  root_init: boolean;
  database_type: string;
}

export interface SetupPayload {
  username: string;
  password: string;
  confirmPassword: string;
  SelfUseModeEnabled: boolean;
  DemoSiteEnabled: boolean;
}

export const setupApi = {
  status: () => api.get<SetupStatus>('/api/setup', { quiet: true }),
  initialise: (body: SetupPayload) => api.post<null>('/api/setup', body, { quiet: true }),
};
