import { minisearchRanker } from "../../mod.ts";
import { rankerContract } from "../_contracts/ranker_contract.ts";

rankerContract("minisearchRanker", minisearchRanker);
