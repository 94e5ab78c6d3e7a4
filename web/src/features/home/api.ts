import { api } from '../../api/client';

export const homeApi = {
  homePageContent: () => api.get<string>('/api/home_page_content', { quiet: true }),
  notice: () => api.get<string>('/api/notice', { quiet: true }),
  about: () => api.get<string>('/api/about', { quiet: true }),
};
