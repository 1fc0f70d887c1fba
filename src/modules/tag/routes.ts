import { tags } from '../../db/schema';
import { tagInputSchema } from '../../shared/contracts/tag';
import { namedEntityRoutes } from '../crud/named-entity-routes';

/** /tag: the shared entity contract, configured for tags. */
export const tagRoutes = namedEntityRoutes(tags, 'tag', tagInputSchema);
