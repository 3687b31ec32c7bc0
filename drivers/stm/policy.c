// SPDX-License-Identifier: GPL-2.0
/*
 * The configfs "stp-policy" tree: policy directories
 * <device>[:<protocol>].<name> bound to an STM device, nested policy nodes
 * with master and channel ranges plus protocol attributes, and the lookup
 * of a node by id for channel assignment.
 */
#include <linux/configfs.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "stm.h"

/* Protects policy <-> device binding and node attributes. */
DEFINE_MUTEX(stp_policy_mutex);

/**
 * struct stp_policy - a policy directory
 * @group:	configfs group
 * @stm:	bound device (device reference held) or NULL once it is gone
 * @pdrv:	protocol (module reference held until release)
 * @node_type:	configfs type of this policy's nodes
 * @node_attrs:	masters, channels and the protocol's attributes
 */
struct stp_policy {
	struct config_group			group;
	struct stm_device			*stm;
	const struct stm_protocol_driver	*pdrv;
	struct config_item_type			node_type;
	struct configfs_attribute		**node_attrs;
};

/**
 * struct stp_policy_node - a node of a policy
 * @group:	configfs group
 * @policy:	the policy it belongs to
 * @r:		master and channel ranges
 * @priv:	the protocol's per-node settings (priv_sz bytes)
 */
struct stp_policy_node {
	struct config_group	group;
	struct stp_policy	*policy;
	struct stp_node_ranges	r;
	u64			priv[];
};

static struct configfs_subsystem stp_policy_subsys;

static struct stp_policy *to_stp_policy(struct config_item *item)
{
	return container_of(to_config_group(item), struct stp_policy, group);
}

static struct stp_policy_node *to_stp_policy_node(struct config_item *item)
{
	return container_of(to_config_group(item), struct stp_policy_node,
			    group);
}

/* The protocol's settings area of a node, for its configfs attributes. */
void *to_pdrv_policy_node(struct config_item *item)
{
	return to_stp_policy_node(item)->priv;
}
EXPORT_SYMBOL_GPL(to_pdrv_policy_node);

/* Show a node's range "first last" (@masters: masters, else channels). */
static ssize_t stp_node_range_show(struct config_item *item, char *page,
				   bool masters)
{
	struct stp_policy_node *node = to_stp_policy_node(item);
	ssize_t ret;

	mutex_lock(&stp_policy_mutex);
	if (masters)
		ret = sprintf(page, "%u %u\n", node->r.first_master,
			      node->r.last_master);
	else
		ret = sprintf(page, "%u %u\n", node->r.first_channel,
			      node->r.last_channel);
	mutex_unlock(&stp_policy_mutex);
	return ret;
}

/*
 * Store "first last" into a node's master or channel range: -EINVAL if
 * unparsable, -ERANGE outside the device's range or reversed, -ENODEV
 * once the device is gone.  Context: process.
 */
static ssize_t stp_node_range_store(struct config_item *item,
				    const char *page, size_t count,
				    bool masters)
{
	struct stp_policy_node *node = to_stp_policy_node(item);
	unsigned int first, last, lo, hi;
	struct stm_device *stm;
	int err = 0;

	if (sscanf(page, "%u %u", &first, &last) != 2)
		return -EINVAL;

	mutex_lock(&stp_policy_mutex);
	stm = node->policy->stm;
	if (!stm) {
		err = -ENODEV;
		goto unlock;
	}
	lo = masters ? stm->sw_start : 0;
	hi = masters ? stm->sw_end : stm->sw_nchannels - 1;
	if (first > last || first < lo || last > hi) {
		err = -ERANGE;
	} else if (masters) {
		node->r.first_master = first;
		node->r.last_master = last;
	} else {
		node->r.first_channel = first;
		node->r.last_channel = last;
	}
unlock:
	mutex_unlock(&stp_policy_mutex);
	return err ? err : count;
}

static ssize_t stp_node_masters_show(struct config_item *item, char *page)
{
	return stp_node_range_show(item, page, true);
}

static ssize_t stp_node_masters_store(struct config_item *item,
				      const char *page, size_t count)
{
	return stp_node_range_store(item, page, count, true);
}

static ssize_t stp_node_channels_show(struct config_item *item, char *page)
{
	return stp_node_range_show(item, page, false);
}

static ssize_t stp_node_channels_store(struct config_item *item,
				       const char *page, size_t count)
{
	return stp_node_range_store(item, page, count, false);
}

CONFIGFS_ATTR(stp_node_, masters);
CONFIGFS_ATTR(stp_node_, channels);

static void stp_policy_node_release(struct config_item *item)
{
	kfree(to_stp_policy_node(item));
}

static struct configfs_item_operations stp_policy_node_item_ops = {
	.release	= stp_policy_node_release,
};

static struct config_group *stp_policy_node_make(struct config_group *group,
						 const char *name);

static struct configfs_group_operations stp_policy_node_group_ops = {
	.make_group	= stp_policy_node_make,
};

static const struct config_item_type stp_policy_type;

/* The policy a group belongs to: the policy itself or one of its nodes. */
static struct stp_policy *stp_group_policy(struct config_group *group)
{
	if (group->cg_item.ci_type == &stp_policy_type)
		return to_stp_policy(&group->cg_item);
	return to_stp_policy_node(&group->cg_item)->policy;
}

/* configfs mkdir of a node.  Context: process, su_mutex held. */
static struct config_group *stp_policy_node_make(struct config_group *group,
						 const char *name)
{
	struct stp_policy *policy = stp_group_policy(group);
	struct stp_policy_node *node;
	struct stm_device *stm;
	ssize_t priv_sz;

	mutex_lock(&stp_policy_mutex);
	stm = policy->stm;
	if (!stm) {
		mutex_unlock(&stp_policy_mutex);
		return ERR_PTR(-ENODEV);
	}

	priv_sz = policy->pdrv->priv_sz;
	node = kzalloc(sizeof(*node) + priv_sz, GFP_KERNEL);
	if (!node) {
		mutex_unlock(&stp_policy_mutex);
		return ERR_PTR(-ENOMEM);
	}

	node->policy = policy;
	node->r.first_master = stm->sw_start;
	node->r.last_master = stm->sw_end;
	node->r.first_channel = 0;
	node->r.last_channel = stm->sw_nchannels - 1;
	if (policy->pdrv->policy_node_init)
		policy->pdrv->policy_node_init(node->priv);
	mutex_unlock(&stp_policy_mutex);

	config_group_init_type_name(&node->group, name, &policy->node_type);
	return &node->group;
}

static ssize_t stp_policy_device_show(struct config_item *item, char *page)
{
	struct stp_policy *policy = to_stp_policy(item);
	ssize_t ret;

	mutex_lock(&stp_policy_mutex);
	ret = sprintf(page, "%s\n",
		      policy->stm ? dev_name(&policy->stm->dev) : "<none>");
	mutex_unlock(&stp_policy_mutex);
	return ret;
}

/* The protocol's name, "<none>" once the device is gone (as upstream). */
static ssize_t stp_policy_protocol_show(struct config_item *item, char *page)
{
	struct stp_policy *policy = to_stp_policy(item);
	ssize_t ret;

	mutex_lock(&stp_policy_mutex);
	ret = sprintf(page, "%s\n",
		      policy->stm ? policy->pdrv->name : "<none>");
	mutex_unlock(&stp_policy_mutex);
	return ret;
}

CONFIGFS_ATTR_RO(stp_policy_, device);
CONFIGFS_ATTR_RO(stp_policy_, protocol);

static struct configfs_attribute *stp_policy_attrs[] = {
	&stp_policy_attr_device,
	&stp_policy_attr_protocol,
	NULL,
};

/*
 * Unbind a policy from its device (device going away, or rmdir).
 * Context: process, stp_policy_mutex held.
 */
void stp_policy_unbind(struct stp_policy *policy)
{
	struct stm_device *stm = policy->stm;

	if (!stm)
		return;
	stm->policy = NULL;
	stm->pdrv = NULL;
	policy->stm = NULL;
	put_device(&stm->dev);
}

static void stp_policy_release(struct config_item *item)
{
	struct stp_policy *policy = to_stp_policy(item);

	stm_put_protocol(policy->pdrv);
	kfree(policy->node_attrs);
	kfree(policy);
}

static struct configfs_item_operations stp_policy_item_ops = {
	.release	= stp_policy_release,
};

static const struct config_item_type stp_policy_type = {
	.ct_item_ops	= &stp_policy_item_ops,
	.ct_group_ops	= &stp_policy_node_group_ops,
	.ct_attrs	= stp_policy_attrs,
	.ct_owner	= THIS_MODULE,
};

/* Node attributes: ours, then the protocol's.  Context: process. */
static int stp_policy_build_node_type(struct stp_policy *policy)
{
	struct configfs_attribute **pattr = policy->pdrv->policy_attr;
	unsigned int n = 0, i = 0;

	while (pattr && pattr[n])
		n++;

	policy->node_attrs = kcalloc(n + 3, sizeof(*policy->node_attrs),
				     GFP_KERNEL);
	if (!policy->node_attrs)
		return -ENOMEM;

	policy->node_attrs[i++] = &stp_node_attr_masters;
	policy->node_attrs[i++] = &stp_node_attr_channels;
	while (n--)
		policy->node_attrs[i++] = *pattr++;

	policy->node_type.ct_item_ops = &stp_policy_node_item_ops;
	policy->node_type.ct_group_ops = &stp_policy_node_group_ops;
	policy->node_type.ct_attrs = policy->node_attrs;
	policy->node_type.ct_owner = THIS_MODULE;
	return 0;
}

/*
 * Split "<device>[:<protocol>].<policy>" in place, as upstream does: the
 * policy name starts after the last dot (device names contain dots) and
 * may be empty; the protocol starts after the last colon before it.  Only
 * a name without a dot is malformed (an empty device name is merely not
 * found, -ENODEV).
 */
static int stp_policy_parse_name(char *buf, char **devname, char **proto)
{
	char *dot = strrchr(buf, '.');
	char *colon;

	if (!dot)
		return -EINVAL;
	*dot = '\0';

	colon = strrchr(buf, ':');
	if (colon)
		*colon++ = '\0';
	*devname = buf;
	*proto = colon;
	return 0;
}

/* configfs mkdir of a policy.  Context: process, su_mutex held. */
static struct config_group *stp_policy_make(struct config_group *group,
					    const char *name)
{
	const struct stm_protocol_driver *pdrv;
	struct stp_policy *policy = NULL;
	char *buf, *devname, *proto;
	struct stm_device *stm;
	int err;

	buf = kstrdup(name, GFP_KERNEL);
	if (!buf)
		return ERR_PTR(-ENOMEM);

	err = stp_policy_parse_name(buf, &devname, &proto);
	if (err)
		goto out_free_buf;

	stm = stm_find_device(devname);
	if (!stm) {
		err = -ENODEV;
		goto out_free_buf;
	}

	err = stm_lookup_protocol(proto, &pdrv);
	if (err)
		goto out_put_stm;

	policy = kzalloc(sizeof(*policy), GFP_KERNEL);
	if (!policy) {
		err = -ENOMEM;
		goto out_put_pdrv;
	}
	policy->pdrv = pdrv;
	err = stp_policy_build_node_type(policy);
	if (err)
		goto out_free_policy;

	mutex_lock(&stp_policy_mutex);
	/* @dead is set under stm_link_mutex, before the policy is unbound. */
	if (stm->policy || READ_ONCE(stm->dead)) {
		err = stm->policy ? -EBUSY : -ENODEV;
	} else {
		/* The binding keeps a device reference, not a module one. */
		get_device(&stm->dev);
		policy->stm = stm;
		stm->policy = policy;
		stm->pdrv = pdrv;
	}
	mutex_unlock(&stp_policy_mutex);
	if (err)
		goto out_free_policy;

	stm_put_device(stm);
	kfree(buf);
	config_group_init_type_name(&policy->group, name, &stp_policy_type);
	return &policy->group;

out_free_policy:
	kfree(policy->node_attrs);
	kfree(policy);
out_put_pdrv:
	stm_put_protocol(pdrv);
out_put_stm:
	stm_put_device(stm);
out_free_buf:
	kfree(buf);
	return ERR_PTR(err);
}

/* configfs rmdir of a policy (it has no nodes left). */
static void stp_policy_drop(struct config_group *group,
			    struct config_item *item)
{
	mutex_lock(&stp_policy_mutex);
	stp_policy_unbind(to_stp_policy(item));
	mutex_unlock(&stp_policy_mutex);
	config_item_put(item);
}

static struct configfs_group_operations stp_policy_root_group_ops = {
	.make_group	= stp_policy_make,
	.drop_item	= stp_policy_drop,
};

static const struct config_item_type stp_policy_root_type = {
	.ct_group_ops	= &stp_policy_root_group_ops,
	.ct_owner	= THIS_MODULE,
};

static struct configfs_subsystem stp_policy_subsys = {
	.su_group = {
		.cg_item = {
			.ci_namebuf	= "stp-policy",
			.ci_type	= &stp_policy_root_type,
		},
	},
};

/**
 * stp_policy_node_lookup() - find the node for a policy id
 * @stm:	device whose policy is searched
 * @id:		"a/b/c"; the deepest existing node on that path is used
 * @open:	called with the node's ranges and protocol settings while the
 *		node, su_mutex and stp_policy_mutex are held
 * @arg:	passed to @open
 *
 * Context: process.
 * Return: @open's result, or -ENOENT when no node matches.
 */
int stp_policy_node_lookup(struct stm_device *stm, const char *id,
			   int (*open)(struct stm_device *stm,
				       const struct stp_node_ranges *r,
				       void *pdrv_priv, void *arg),
			   void *arg)
{
	struct stp_policy_node *node = NULL;
	struct config_group *group;
	char *path, *cursor, *part;
	int err = -ENOENT;

	path = kstrdup(id, GFP_KERNEL);
	if (!path)
		return -ENOMEM;

	mutex_lock(&stp_policy_subsys.su_mutex);
	mutex_lock(&stp_policy_mutex);
	if (!stm->policy)
		goto unlock;

	group = &stm->policy->group;
	cursor = path;
	while ((part = strsep(&cursor, "/"))) {
		struct config_item *item;

		if (!*part)
			continue;
		item = config_group_find_item(group, part);
		if (!item)
			break;
		if (node)
			config_item_put(&node->group.cg_item);
		node = to_stp_policy_node(item);
		group = &node->group;
	}

	if (node) {
		err = open(stm, &node->r, node->priv, arg);
		config_item_put(&node->group.cg_item);
	}
unlock:
	mutex_unlock(&stp_policy_mutex);
	mutex_unlock(&stp_policy_subsys.su_mutex);
	kfree(path);
	return err;
}

int stp_configfs_init(void)
{
	int err;

	config_group_init(&stp_policy_subsys.su_group);
	mutex_init(&stp_policy_subsys.su_mutex);
	err = configfs_register_subsystem(&stp_policy_subsys);
	if (err)
		pr_err("stm_core: cannot register configfs stp-policy (%d)\n",
		       err);
	return err;
}

void stp_configfs_exit(void)
{
	configfs_unregister_subsystem(&stp_policy_subsys);
}
