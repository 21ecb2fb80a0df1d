import type { Request } from '../../http/request.js';
import type { Response } from '../../http/response.js';
import { fetchData, fetchFile } from '../local-schemes.js';
import type { DownloadHandler } from './download-handler.js';

/** The `file` scheme: reads the file (Scrapy's FileDownloadHandler). */
export class FileDownloadHandler implements DownloadHandler {
  downloadRequest(request: Request): Promise<Response> {
    return fetchFile(request);
  }
}

/** The `data` scheme: decodes the URL itself (Scrapy's DataURIDownloadHandler). */
export class DataDownloadHandler implements DownloadHandler {
  async downloadRequest(request: Request): Promise<Response> {
    return fetchData(request);
  }
}
