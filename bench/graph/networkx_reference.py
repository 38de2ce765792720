"""Reference numbers from networkx for a graph exported by compare-networkx.mjs.

Input: JSON {nodes: [...], edges: [[from, to, weight], ...], ours: {partition: {node: community}}}.
Output (stdout): JSON with SCCs, PageRank, Louvain modularity, and the modularity of our partition.
"""
import json
import sys

import networkx as nx

data = json.load(open(sys.argv[1]))
directed = nx.DiGraph()
directed.add_nodes_from(data["nodes"])
for source, target, weight in data["edges"]:
    directed.add_edge(source, target, weight=weight)

sccs = sorted(sorted(c) for c in nx.strongly_connected_components(directed) if len(c) > 1)
pagerank = nx.pagerank(directed, alpha=0.85, weight="weight", tol=1e-10, max_iter=1000)

undirected = nx.Graph()
undirected.add_nodes_from(data["nodes"])
for source, target, weight in data["edges"]:
    if source == target:
        continue
    previous = undirected.get_edge_data(source, target, {"weight": 0})["weight"]
    undirected.add_edge(source, target, weight=previous + weight)

communities = nx.community.louvain_communities(undirected, weight="weight", resolution=1.0, seed=42)
modularity = nx.community.modularity(undirected, communities, weight="weight", resolution=1.0)

ours = {}
for node, community in data["ours"]["partition"].items():
    ours.setdefault(community, set()).add(node)
our_modularity_by_networkx = nx.community.modularity(undirected, list(ours.values()), weight="weight", resolution=1.0)

json.dump(
    {
        "sccs": sccs,
        "pagerank": sorted(pagerank.items(), key=lambda item: (-item[1], item[0])),
        "louvain": {"communities": len(communities), "modularity": modularity},
        "our_partition_modularity": our_modularity_by_networkx,
    },
    sys.stdout,
)
