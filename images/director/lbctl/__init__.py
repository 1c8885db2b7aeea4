"""Control of the lab's L4 load balancer: one interface over IPVS and nftables."""
